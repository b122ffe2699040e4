import { t } from '../store.ts';
import { Screen } from '../ui.tsx';
import { WayOn } from './WayOn.tsx';

// The error pages of the specification: /404, /error and /error-invalid-link, each with the same
// way on (a button back to the vendor's shop, or how to find a vendor).

export const NotFound = (props: { vendor?: string }) => (
  <Screen id="shop-not-found" title={t('notFound')}>
    <WayOn vendor={props.vendor} />
  </Screen>
);

export const ErrorPage = () => (
  <Screen id="shop-error" title={t('errorTitle')}>
    <p id="shop-error-text">{t('errorText')}</p>
    <WayOn />
  </Screen>
);

export const InvalidLink = () => (
  <Screen id="shop-invalid-link" title={t('invalidLinkTitle')}>
    <p id="shop-invalid-link-text">{t('invalidLinkText')}</p>
    <WayOn />
  </Screen>
);
