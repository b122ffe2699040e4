import { env, navigate, pendingKey, readStored, t, type PendingOrder } from '../store.ts';
import { stepPath } from '../route.ts';
import { Screen } from '../ui.tsx';

/** Cancelled, declined or never confirmed: "Try again" returns to the confirmation, cart intact. */
export function Failure(props: { order: string }) {
  const vendor = readStored<PendingOrder>('session', pendingKey(props.order))?.vendor ?? env.licenceId;
  return (
    <Screen id="shop-failure" title={t('failed')}>
      <p id="shop-failure-text">{t('failedText')}</p>
      <button
        type="button"
        id="shop-try-again"
        class="shop-button shop-primary"
        onClick={() => navigate(vendor ? stepPath(vendor, 'confirmation') : '/')}
      >
        {t('tryAgain')}
      </button>
    </Screen>
  );
}
