import { useEffect, useState } from 'preact/hooks';
import { callApi, type Refusal } from '../api.ts';
import { failurePath, receiptPath, stepPath } from '../route.ts';
import {
  env,
  finishFlow,
  inLang,
  lang,
  navigate,
  pendingKey,
  readStored,
  t,
  writeStored,
  type PendingOrder,
} from '../store.ts';
import { Alert, Go, Loading, money, Screen, WithName } from '../ui.tsx';
import { retryDelay, unreachable } from './connection.ts';
import { ta } from './after-payment-texts.ts';
import { WayOn } from './WayOn.tsx';

/** GET /api/orders/{token}/ (and /verify): what the customer shows the vendor. */
export interface Receipt {
  order: string;
  number: number;
  status: 'pending' | 'paid' | 'failed' | 'expired' | 'flagged' | 'refunded';
  vendor: string;
  licenseId: string;
  /** Where a digital edition (or the receipt of printed copies) was sent, shortened ("r…@example.org"). */
  emailHint: string | null;
  /**
   * Whether the PDF mail (or the receipt mail) has gone out of the outbox: only `sent` may be called
   * sent; `off` where the shop has no mail server and sends nothing.
   */
  mail: 'sent' | 'sending' | 'held' | 'off' | null;
  lines: { item: number; name: string; nameEn?: string; kind: 'print' | 'digital'; quantity: number; amount: number }[];
  tip: number;
  total: number;
  createdAt: string;
  paidAt: string | null;
  /** When the money went back (a refunded order's alone). */
  refundedAt?: string | null;
  downloads: { id: string; itemId: number; itemName: string; itemNameEn?: string }[];
}

/** The order at the API, waiting up to `wait` seconds for a pending payment's booking. */
export const orderApi = (order: string, wait?: string) =>
  `/api/orders/${encodeURIComponent(order)}/${wait ? `?wait=${wait}` : ''}`;

/**
 * Money has moved (paid, or paid and then flagged or refunded): every address of the order leads to
 * its receipt, and no page may say that nothing was charged.
 */
export const charged = (status: Receipt['status']) =>
  status !== 'pending' && status !== 'failed' && status !== 'expired';

const mailText = { sent: 'pdfSent', sending: 'pdfSending', held: 'pdfHeld', off: 'pdfNoMail' } as const;
const receiptMailText = {
  sent: 'receiptSent',
  sending: 'receiptSending',
  held: 'receiptHeld',
  off: 'receiptNoMail',
} as const;

const locale = () => (lang.value === 'de' ? 'de-AT' : 'en-GB');
// In the newspaper's zone, as the vendor's watch and the office's books read the time, and the same
// when the server renders the page as in the phone.
const format = (date: Date, options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat(locale(), { ...options, timeZone: env.boot.settings.timeZone }).format(date);

/** The time now, to the second: a screenshot of the receipt cannot keep it ticking. */
function Clock() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <time id="shop-receipt-clock" dateTime={now.toISOString()}>
      {format(now, { hour: '2-digit', minute: '2-digit', second: '2-digit' })}
    </time>
  );
}

const Tick = () => (
  <svg class="shop-receipt-icon shop-receipt-tick" viewBox="0 0 24 24" aria-hidden="true">
    <circle cx="12" cy="12" r="11" />
    <path d="M6.5 12.5l3.5 3.5 7.5-8" />
  </svg>
);

const Paper = () => (
  <svg class="shop-receipt-icon shop-receipt-document" viewBox="0 0 24 24" aria-hidden="true">
    <path d="M6 2h8l5 5v15H6z" />
    <path d="M14 2v5h5M9 12h7M9 16h7" />
  </svg>
);

/** Stripe's way back of the money: an arrow turning back. */
const Returned = () => (
  <svg class="shop-receipt-icon shop-receipt-returned" viewBox="0 0 24 24" aria-hidden="true">
    <path d="M9 5L4 10l5 5" />
    <path d="M4 10h10a6 6 0 010 12h-3" />
  </svg>
);

/** "Gekauft am …" and the like: a moment as the newspaper's clock read it. */
const at = (text: 'boughtAt' | 'refundedAt', when: Date) =>
  ta(text, {
    date: format(when, { day: '2-digit', month: '2-digit', year: 'numeric' }),
    time: format(when, { hour: '2-digit', minute: '2-digit' }),
  });

/**
 * What was bought: the copies, the editions sent by e-mail, the total and when. A refunded order shows
 * the same, without the downloads and mails that no longer hold.
 */
function Bought(props: { receipt: Receipt; refunded?: boolean }) {
  const { receipt, refunded } = props;
  const bought = new Date(receipt.paidAt ?? receipt.createdAt);
  const tipWord = env.boot.settings.useTipInsteadOfDonation ? 'includesTip' : 'includesDonation';
  return (
    <>
      <ul id="shop-receipt-tiles" class="shop-tiles">
        {/* The copies the vendor hands over first, then the editions sent by e-mail. */}
        {[...receipt.lines]
          .sort((a, b) => Number(a.kind === 'digital') - Number(b.kind === 'digital'))
          .flatMap((line) =>
            line.kind === 'print'
              ? Array.from({ length: line.quantity }, (_, copy) => (
                  <li key={`${line.item}-${copy}`} class="shop-receipt-tile shop-receipt-print" data-item={line.item}>
                    {refunded ? <Returned /> : <Tick />}
                    <span class="shop-receipt-tile-name">{inLang(line.name, line.nameEn)}</span>
                  </li>
                ))
              : [
                  <li key={line.item} class="shop-receipt-tile shop-receipt-digital" data-item={line.item}>
                    <Paper />
                    <span class="shop-receipt-tile-name">
                      {line.quantity} × {inLang(line.name, line.nameEn)}
                    </span>
                    {receipt.emailHint && !refunded && (
                      <span class="shop-receipt-pdf-sent">
                        {ta(mailText[receipt.mail ?? 'sending'], { email: receipt.emailHint })}
                      </span>
                    )}
                    {receipt.downloads
                      .filter((download) => download.itemId === line.item)
                      .map((download) => (
                        <a
                          key={download.id}
                          class="shop-button shop-receipt-download"
                          href={`${env.apiBase}/api/pdf/${download.id}/`}
                          download
                        >
                          {t('download', { name: inLang(download.itemName, download.itemNameEn) })}
                        </a>
                      ))}
                  </li>,
                ],
          )}
      </ul>
      <p id="shop-receipt-total" class="shop-total">
        <span>{t('total')}</span> <span id="shop-receipt-total-amount">{money(receipt.total)}</span>
      </p>
      {receipt.tip > 0 && (
        <p id="shop-receipt-tip" class="shop-note">
          {t(tipWord, { amount: money(receipt.tip) })}
        </p>
      )}
      {/* The receipt by e-mail of printed copies; a digital edition's tile tells its own mail. */}
      {!refunded && receipt.emailHint && receipt.mail && !receipt.lines.some((line) => line.kind === 'digital') && (
        <p id="shop-receipt-mail" class="shop-note">
          {ta(receiptMailText[receipt.mail], { email: receipt.emailHint })}
        </p>
      )}
      <p id="shop-receipt-bought">{at('boughtAt', bought)}</p>
      {/* Below the receipt, so the vendor sees the receipt first; a plain link without the script too. */}
      <p id="shop-receipt-back-row">
        <Go id="shop-receipt-back" to={stepPath(receipt.licenseId, 'landing-page')}>
          {t('backToVendorShop', { name: receipt.vendor })}
        </Go>
      </p>
    </>
  );
}

function Paid(props: { receipt: Receipt }) {
  const { receipt } = props;
  return (
    <Screen
      id="shop-receipt"
      title={
        <WithName
          text={(name) => ta('showTo', { name })}
          name={<span id="shop-receipt-vendor">{receipt.vendor}</span>}
        />
      }
    >
      <p id="shop-receipt-paid" class="shop-receipt-paid">
        <Tick />
        <strong id="shop-receipt-status">{ta('paid')}</strong>{' '}
        <span id="shop-receipt-number">{ta('orderNumber', { number: receipt.number })}</span>
      </p>
      <p id="shop-receipt-clock-row" class="shop-clock">
        <Clock />
      </p>
      <Bought receipt={receipt} />
    </Screen>
  );
}

/** The receipt of an order whose money went back: what was bought, marked as refunded, and when. */
function Refunded(props: { receipt: Receipt }) {
  const { receipt } = props;
  return (
    <Screen id="shop-receipt-refunded" title={ta('refunded')}>
      <div class="shop-refunded">
        <p id="shop-receipt-paid" class="shop-receipt-paid">
          <Returned />
          <strong id="shop-receipt-status">{ta('refundedStatus')}</strong>{' '}
          <span id="shop-receipt-number">{ta('orderNumber', { number: receipt.number })}</span>
        </p>
        <p id="shop-receipt-refunded-text">
          {receipt.refundedAt && `${at('refundedAt', new Date(receipt.refundedAt))}. `}
          {ta('refundedText')}
        </p>
        <Bought receipt={receipt} refunded />
      </div>
    </Screen>
  );
}

/** An address that names no order the shop knows (mistyped, shortened): what it is, and the way on. */
export const InvalidConfirmation = () => (
  <Screen id="shop-receipt-problem" titleId="shop-receipt-invalid" title={t('invalidConfirmation')}>
    <p id="shop-receipt-invalid-text">{ta('invalidConfirmationText')}</p>
    <WayOn />
  </Screen>
);

/** `/paymentconfirmation?order=<token>`: the receipt, from its address alone (reload, bookmark). */
export function ReceiptPage(props: { order: string }) {
  // Without an order there is nothing to ask: an empty token would be the staff's order list.
  if (!props.order) {
    return (
      <Screen id="shop-receipt-problem" titleId="shop-receipt-no-order" title={t('noOrderTitle')}>
        <p id="shop-receipt-no-order-text">{t('noOrderText')}</p>
        <WayOn />
      </Screen>
    );
  }
  return <OrderReceipt order={props.order} />;
}

function OrderReceipt(props: { order: string }) {
  const [receipt, setReceipt] = useState<Receipt>();
  const [refusal, setRefusal] = useState<Refusal>();
  const [interrupted, setInterrupted] = useState(false);
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    let done = false;
    let failures = 0;
    let retry: ReturnType<typeof setTimeout> | undefined;
    setRefusal(undefined);
    // No answer says nothing about the order: asked again (1, 2, 4, then every 5 s) until one comes,
    // so a customer who paid is never left on an error by a dropped connection.
    const ask = async (): Promise<void> => {
      const answer = await callApi<Receipt>(orderApi(props.order));
      if (done) return;
      if (!answer.ok && unreachable(answer.refusal.status)) {
        failures++;
        setInterrupted(true);
        retry = setTimeout(() => void ask(), retryDelay(failures));
        return;
      }
      setInterrupted(false);
      if (!answer.ok) return setRefusal(answer.refusal);
      setReceipt(answer.body);
      if (answer.body.status === 'failed' || answer.body.status === 'expired') navigate(failurePath(props.order), true);
      const pending = readStored<PendingOrder>('session', pendingKey(props.order));
      if (answer.body.status === 'paid' && pending) {
        finishFlow(pending.vendor);
        writeStored('session', pendingKey(props.order), undefined);
      }
    };
    void ask();
    return () => {
      done = true;
      clearTimeout(retry);
    };
  }, [props.order, asked]);

  if (interrupted && !receipt)
    return (
      <Screen id="shop-receipt-waiting" title={ta('receiptComing')}>
        <p id="shop-receipt-interrupted" class="shop-note" role="status">
          {t('connectionLost')}
        </p>
      </Screen>
    );
  if (refusal) {
    if (refusal.status === 404 || refusal.status === 400) return <InvalidConfirmation />;
    return (
      <Screen id="shop-receipt-problem" title={t('errorTitle')}>
        <Alert id="shop-receipt-error">{refusal.message}</Alert>
        <WayOn />
      </Screen>
    );
  }
  if (!receipt) return <Loading label={t('loading')} />;
  return <ReceiptView receipt={receipt} checkAgain={() => setAsked((times) => times + 1)} />;
}

/**
 * The receipt as its order stands. `checkAgain` asks once more for a payment not yet confirmed;
 * without it (the server's page for a browser without the script) the page itself is asked again.
 */
export function ReceiptView(props: { receipt: Receipt; checkAgain?: () => void }) {
  const { receipt, checkAgain } = props;
  if (receipt.status === 'paid') return <Paid receipt={receipt} />;
  // Money has moved and moved again (a refund), or waits for the newspaper's review: neither is
  // "not confirmed", which would ask a charged customer to pay again.
  if (receipt.status === 'refunded') return <Refunded receipt={receipt} />;
  if (receipt.status === 'flagged')
    return (
      <Screen id="shop-receipt-flagged" title={ta('flagged')}>
        <p>{ta('flaggedText')}</p>
        <WayOn vendor={receipt.licenseId} />
      </Screen>
    );
  return (
    <Screen id="shop-receipt-pending" title={ta('notConfirmed')}>
      {checkAgain ? (
        <button type="button" id="shop-receipt-check-again" class="shop-button shop-primary" onClick={checkAgain}>
          {ta('checkAgain')}
        </button>
      ) : (
        <a id="shop-receipt-check-again" class="shop-button shop-primary" href={receiptPath(receipt.order)}>
          {ta('checkAgain')}
        </a>
      )}
      <WayOn vendor={receipt.licenseId} />
    </Screen>
  );
}
