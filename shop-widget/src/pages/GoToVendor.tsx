import { env, t } from '../store.ts';
import { External, Screen } from '../ui.tsx';

/** `/`, unmatched paths and an unknown or deactivated vendor's id: the customer needs a vendor. */
export function GoToVendor(props: { invalidId?: boolean }) {
  const help = env.boot.settings.vendorNotFoundHelpUrl;
  const button = help && (
    <External id="shop-vendor-help" class="shop-button shop-primary" href={help}>
      {t('findVendor')}
    </External>
  );
  if (!props.invalidId) {
    return (
      <Screen id="shop-go-to-vendor" titleId="shop-go-to-vendor-text" title={t('goToVendor')}>
        {button}
      </Screen>
    );
  }
  return (
    <Screen id="shop-check-id" titleId="shop-invalid-id" title={t('invalidId')}>
      <p id="shop-go-to-vendor-text">{t('goToVendor')}</p>
      {button}
    </Screen>
  );
}
