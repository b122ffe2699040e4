import { env, t } from '../store.ts';
import { External, Screen } from '../ui.tsx';

/** WebshopIsClosed: no new orders, and a place to read why. */
export function Maintenance() {
  const help = env.boot.settings.maintainanceModeHelpUrl;
  return (
    <Screen id="shop-maintenance" title={t('maintenance')}>
      {help && (
        <External id="shop-maintenance-help" class="shop-button shop-primary" href={help}>
          {t('learnMore')}
        </External>
      )}
    </Screen>
  );
}
