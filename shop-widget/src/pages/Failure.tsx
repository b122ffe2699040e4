import { useEffect, useState } from 'preact/hooks';
import { callApi } from '../api.ts';
import { stepPath } from '../route.ts';
import { env, lastVendor, navigate, pendingKey, readStored, t, type PendingOrder } from '../store.ts';
import { Loading, Screen } from '../ui.tsx';
import type { Receipt } from './Receipt.tsx';

/**
 * Cancelled, declined or never confirmed: "Try again" returns to the confirmation, cart intact. In
 * another browser (the card page opened elsewhere) the order's token names its vendor.
 */
export function Failure(props: { order: string }) {
  const known = readStored<PendingOrder>('session', pendingKey(props.order))?.vendor ?? env.licenceId;
  const [vendor, setVendor] = useState<string | null | undefined>(known);
  useEffect(() => {
    if (known || !props.order) return setVendor(known ?? lastVendor() ?? null);
    void callApi<Receipt>(`/api/orders/${encodeURIComponent(props.order)}/`).then((answer) =>
      setVendor(answer.ok ? answer.body.licenseId : (lastVendor() ?? null)),
    );
  }, [props.order, known]);
  if (vendor === undefined) return <Loading label={t('loading')} />;
  return (
    <Screen id="shop-failure" title={t('failed')}>
      <p id="shop-failure-text">{t('failedText')}</p>
      <p id="shop-failure-nothing-charged">{t('nothingCharged')}</p>
      {/* Without a vendor to return to, the start page says how to find one. */}
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
