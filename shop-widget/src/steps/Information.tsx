import { t } from '../store.ts';
import { Go, Screen } from '../ui.tsx';
import { at, type StepProps } from './step.ts';

/** What print and e-paper mean for the customer. */
export function Information(props: StepProps) {
  return (
    <Screen id="shop-information" title={t('infoTitle')}>
      <h2 class="shop-subtitle">{t('print')}</h2>
      <p id="shop-information-print">{t('infoPrint')}</p>
      <h2 class="shop-subtitle">{t('digital')}</h2>
      <p id="shop-information-digital">{t('infoDigital')}</p>
      <p id="shop-information-both">{t('infoBoth')}</p>
      <Go id="shop-back" class="shop-link shop-back" to={at(props, 'print-digital')}>
        {t('back')}
      </Go>
    </Screen>
  );
}
