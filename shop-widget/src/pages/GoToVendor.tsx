import { t } from '../store.ts';
import { Screen } from '../ui.tsx';
import { FindVendor } from './WayOn.tsx';

/** `/`, unmatched paths and an unknown or deactivated vendor's id: the customer needs a vendor. */
export function GoToVendor(props: { invalidId?: boolean }) {
  if (!props.invalidId) {
    return (
      <Screen id="shop-go-to-vendor" titleId="shop-go-to-vendor-text" title={t('goToVendor')}>
        <FindVendor />
      </Screen>
    );
  }
  return (
    <Screen id="shop-check-id" titleId="shop-invalid-id" title={t('invalidId')}>
      <p id="shop-go-to-vendor-text">{t('goToVendor')}</p>
      <FindVendor />
    </Screen>
  );
}
