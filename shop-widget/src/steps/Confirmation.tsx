import { useState } from 'preact/hooks';
import { checkout, isEmail, newCartId, setQuantity } from '../cart.ts';
import { goToCheckout, placeOrder } from '../pay.ts';
import { receiptPath } from '../route.ts';
import { email, env, finishFlow, navigate, refusalOf, rememberEmail, scripted, t } from '../store.ts';
import { Alert, External, Go, money, Progress, Screen, ShopForm, WithName } from '../ui.tsx';
import { problemText } from '../problems.ts';
import { at, update, type StepProps } from './step.ts';

/**
 * A digital edition is sent by e-mail: asked once, remembered on the device. In-app QR scanners have
 * no Back button, so the form has its own, and a way to buy without the digital item.
 */
function EmailForm(props: { item: string; error?: string; done: () => void; remove: () => void; back: string }) {
  const [value, setValue] = useState(refusalOf('confirmation', 'email')?.value ?? email.value);
  const [error, setError] = useState(props.error);
  const submit = (event: Event) => {
    event.preventDefault();
    if (!isEmail(value)) return setError(t('invalidEmail'));
    rememberEmail(value);
    props.done();
  };
  return (
    <Screen id="shop-email-step" title={t('needsEmail', { name: props.item })}>
      <ShopForm id="shop-email-form" class="shop-form" onSubmit={submit} noValidate>
        <label for="shop-email" class="shop-label">
          {t('emailLabel')}
        </label>
        <input
          id="shop-email"
          name="email"
          class="shop-input"
          type="email"
          autoComplete="email"
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'shop-email-error' : undefined}
          onInput={(event) => setValue(event.currentTarget.value)}
        />
        {error && <Alert id="shop-email-error">{error}</Alert>}
        <button type="submit" id="shop-email-next" class="shop-button shop-primary">
          {t('next')}
        </button>
      </ShopForm>
      <nav class="shop-more">
        <button
          type="submit"
          form="shop-email-form"
          name="remove"
          value="digital"
          id="shop-email-remove"
          class="shop-inline-button"
          onClick={(event) => {
            event.preventDefault();
            props.remove();
          }}
        >
          {t('removeItem', { name: props.item })}
        </button>
        <Go id="shop-back" class="shop-link shop-back" to={props.back}>
          {t('back')}
        </Go>
      </nav>
    </Screen>
  );
}

/** Lines, tip and total, the terms, and Pay: disabled until the terms are accepted. */
export function Confirmation(props: StepProps) {
  const flow = props.flow.value;
  const { settings, items } = env.boot;
  const summary = checkout(items, flow.cart, flow.tip ?? 0, settings.maxOrderAmount);
  const [editingEmail, setEditingEmail] = useState(false);
  const [emailRefusal, setEmailRefusal] = useState(refusalOf('confirmation', 'email')?.text);
  const [payError, setPayError] = useState(refusalOf('confirmation', 'pay')?.text);
  const [busy, setBusy] = useState(false);
  // Without a digital edition an address is optional: it only brings the receipt by e-mail.
  const [receiptEmail, setReceiptEmail] = useState(refusalOf('confirmation', 'email')?.value ?? email.value);
  const [receiptEmailError, setReceiptEmailError] = useState(refusalOf('confirmation', 'email')?.text);

  if (summary.digital && (editingEmail || !isEmail(email.value))) {
    const done = () => {
      setEditingEmail(false);
      setEmailRefusal(undefined);
    };
    const remove = () => {
      const cart = summary.lines.reduce(
        (next, line) => (line.item.isDigital ? setQuantity(next, line.item, 0) : next),
        flow.cart,
      );
      update(props, { cart });
      done();
    };
    return (
      <EmailForm
        item={summary.digital.name}
        error={emailRefusal}
        done={done}
        remove={remove}
        back={at(props, 'tipping')}
      />
    );
  }

  const pay = async () => {
    setBusy(true);
    setPayError(undefined);
    const cartId = flow.cartId ?? newCartId();
    if (!flow.cartId) update(props, { cartId });
    const receiptTo = receiptEmail.trim();
    if (!summary.digital && receiptTo) rememberEmail(receiptTo);
    const to = summary.digital ? email.value : receiptTo;
    const answer = await placeOrder(props.vendor.licenseId, summary, to, cartId, flow.retryOf);
    if (answer.ok) {
      const { order, checkoutUrl } = answer.body;
      if (!checkoutUrl) {
        // The order this cart retries was paid meanwhile (on another device): its receipt, and a fresh cart.
        finishFlow(props.vendor.licenseId);
        return navigate(receiptPath(order), true);
      }
      navigate(at(props, 'payment', `?order=${encodeURIComponent(order)}`));
      goToCheckout(checkoutUrl);
      return;
    }
    setBusy(false);
    // A refused cart (ended, paid, changed on the server) is paid again as a new one.
    update(props, { cartId: undefined });
    const { errors, message } = answer.refusal;
    if (errors.email && !summary.digital) setReceiptEmailError(errors.email);
    else if (errors.email) {
      setEmailRefusal(errors.email);
      setEditingEmail(true);
    } else setPayError(message);
  };

  const problem = problemText(summary);
  const termsRefused = refusalOf('confirmation', 'terms');
  const tipWord = settings.useTipInsteadOfDonation ? 'tip' : 'donation';
  return (
    <Screen id="shop-confirmation" title={t('orderTitle')}>
      <Progress step={2} />
      <p id="shop-order-vendor">
        <WithName text="buyingFrom" name={<strong id="shop-order-vendor-name">{props.vendor.displayName}</strong>} />
      </p>
      <ul id="shop-order-lines" class="shop-lines">
        {summary.lines.map((line) => (
          <li key={line.item.id} class="shop-line shop-order-line" data-item={line.item.id}>
            <span class="shop-line-name">
              {line.quantity} × {line.item.name}
            </span>
            <span class="shop-line-amount">{money(line.amount)}</span>
          </li>
        ))}
        {summary.tip > 0 && (
          <li id="shop-order-tip" class="shop-line">
            <span class="shop-line-name">{t(tipWord)}</span>
            <span class="shop-line-amount">{money(summary.tip)}</span>
          </li>
        )}
      </ul>
      <p id="shop-order-total" class="shop-total">
        <span>{t('total')}</span> <span id="shop-order-total-amount">{money(summary.total)}</span>
      </p>
      {summary.tip > 0 && (
        <p id="shop-order-includes-tip" class="shop-note">
          {t(tipWord === 'tip' ? 'includesTip' : 'includesDonation', { amount: money(summary.tip) })}
        </p>
      )}
      {summary.digital && (
        <p id="shop-email-for" class="shop-note">
          {t('forEmail', { email: email.value })} ·{' '}
          <button
            type="submit"
            form="shop-pay-form"
            formNoValidate
            name="change"
            value="email"
            id="shop-email-change"
            class="shop-inline-button"
            onClick={(event) => {
              event.preventDefault();
              setEditingEmail(true);
            }}
          >
            {t('change')}
          </button>
        </p>
      )}
      {problem && <Alert id="shop-order-problem">{problem}</Alert>}
      <ShopForm id="shop-pay-form">
        {!summary.digital && (
          <div id="shop-receipt-email-field">
            <label for="shop-receipt-email" class="shop-label">
              {t('receiptEmailLabel')}
            </label>
            <input
              id="shop-receipt-email"
              name="email"
              class="shop-input"
              type="email"
              autoComplete="email"
              value={receiptEmail}
              aria-invalid={receiptEmailError ? true : undefined}
              aria-describedby={receiptEmailError ? 'shop-receipt-email-error' : 'shop-receipt-email-hint'}
              onInput={(event) => {
                setReceiptEmail(event.currentTarget.value);
                setReceiptEmailError(undefined);
              }}
            />
            {receiptEmailError ? (
              <Alert id="shop-receipt-email-error">{receiptEmailError}</Alert>
            ) : (
              <p id="shop-receipt-email-hint" class="shop-note">
                {t('receiptEmailHint')}
              </p>
            )}
          </div>
        )}
        <div class="shop-terms">
          <input
            type="checkbox"
            id="shop-terms"
            name="terms"
            value="yes"
            required
            class="shop-checkbox"
            checked={flow.terms}
            aria-describedby={flow.terms ? undefined : 'shop-terms-hint'}
            onChange={(event) => update(props, { terms: event.currentTarget.checked })}
          />
          <label for="shop-terms" id="shop-terms-label">
            {t('termsBefore')}
            <External id="shop-terms-link" class="shop-inline-link" href={settings.agbUrl}>
              {t('terms')}
            </External>
          </label>
        </div>
        {!flow.terms &&
          (termsRefused ? (
            <Alert id="shop-terms-hint">{termsRefused.text}</Alert>
          ) : (
            <p id="shop-terms-hint" class="shop-note">
              {t('termsNeeded')}
            </p>
          ))}
        {payError && <Alert id="shop-pay-error">{payError}</Alert>}
        <button
          type="submit"
          name="pay"
          value="order"
          id="shop-pay"
          class="shop-button shop-primary"
          // Without the script the form sends the checkbox along, and the server checks it.
          disabled={(scripted.value && !flow.terms) || Boolean(problem) || busy}
          aria-busy={busy}
          onClick={(event) => {
            event.preventDefault();
            const receiptTo = receiptEmail.trim();
            if (!summary.digital && receiptTo && !isEmail(receiptTo)) {
              setReceiptEmailError(t('invalidEmail'));
              return;
            }
            // Disabled at once: a second quick tap must not wait for the screen to redraw.
            event.currentTarget.disabled = true;
            void pay();
          }}
        >
          {busy ? t('paying') : t('pay')}
        </button>
      </ShopForm>
      <nav class="shop-more">
        <Go id="shop-change-products" to={at(props, 'shop')}>
          {t('otherProducts')}
        </Go>
        <Go id="shop-back" class="shop-link shop-back" to={at(props, 'tipping')}>
          {t('back')}
        </Go>
      </nav>
    </Screen>
  );
}
