import { t } from '../store.ts';
import { Go, Screen } from '../ui.tsx';
import { WayOn } from './WayOn.tsx';

// The error pages of the specification: /404, /error and /error-invalid-link.

export const NotFound = () => (
  <Screen id="shop-not-found" title={t('notFound')}>
    <Go id="shop-home" to="/">
      {t('home')}
    </Go>
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
