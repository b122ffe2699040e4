import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { formatMoney } from './money.ts';
import { env, lang, navigate, navigated, path, t } from './store.ts';
import type { TextKey } from './texts.ts';

// The few building blocks every screen shares. Ids and classes are stable: newspapers style them.

/** A screen with its heading; after a move the heading takes the focus so screen readers announce it. */
export function Screen(props: {
  id: string;
  title: ComponentChildren;
  titleId?: string;
  aside?: ComponentChildren;
  children?: ComponentChildren;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (navigated) heading.current?.focus();
  }, []);
  return (
    <section id={props.id} class="shop-screen">
      <div class="shop-title-row">
        <h1 id={props.titleId ?? `${props.id}-title`} class="shop-title" tabIndex={-1} ref={heading}>
          {props.title}
        </h1>
        {props.aside}
      </div>
      {props.children}
    </section>
  );
}

/**
 * Where the customer is between the tip and the card page (the card page is the last step), and,
 * before the order's own total is shown, what the items come to so far.
 */
export function Progress(props: { step: 1 | 2; soFar?: number }) {
  return (
    <p id="shop-progress" class="shop-progress">
      <span id="shop-progress-step">{t('progress', { step: props.step, of: 3 })}</span>
      {props.soFar !== undefined && <span id="shop-running-total">{t('soFar', { amount: money(props.soFar) })}</span>}
    </p>
  );
}

/**
 * A text whose {name} is an element of its own (the vendor's name, styled by the newspaper); `text`
 * a key of texts.ts, or the text filled with the name given.
 */
export function WithName(props: { text: TextKey | ((name: string) => string); name: ComponentChildren }) {
  const said = typeof props.text === 'function' ? props.text('\u0000') : t(props.text, { name: '\u0000' });
  const [before, after] = said.split('\u0000');
  return (
    <>
      {before}
      {props.name}
      {after}
    </>
  );
}

/** An amount in the installation's currency, written for the current language. */
export const money = (cents: number) => formatMoney(cents, lang.value, env.boot.settings.currency);

const plainClick = (event: MouseEvent) =>
  event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

/** A move inside the shop: a real link (it opens in a new tab too), handled without reloading. */
export function Go(props: { to: string; id?: string; class?: string; replace?: boolean; children: ComponentChildren }) {
  return (
    <a
      id={props.id}
      class={props.class ?? 'shop-link'}
      href={env.mode === 'page' ? props.to : `${env.apiBase}${props.to}`}
      onClick={(event) => {
        if (!plainClick(event)) return;
        event.preventDefault();
        navigate(props.to, props.replace);
      }}
    >
      {props.children}
    </a>
  );
}

/**
 * A form the server answers where the script is not running (switched off, broken, not arrived yet):
 * it posts to the screen's own address, and the server answers with the next screen. With the script,
 * the buttons act at once and nothing is sent.
 */
export function ShopForm(props: {
  id?: string;
  class?: string;
  noValidate?: boolean;
  onSubmit?: (event: SubmitEvent) => void;
  children: ComponentChildren;
}) {
  return (
    <form
      method="post"
      action={env.mode === 'page' ? path.value : `${env.apiBase}${path.value}`}
      id={props.id}
      class={props.class}
      noValidate={props.noValidate}
      onSubmit={props.onSubmit}
    >
      {props.children}
    </form>
  );
}

/** A link that leaves the shop (help pages, terms): a new tab keeps the customer's place. */
export function External(props: {
  href: string;
  id?: string;
  class?: string;
  label?: string;
  children: ComponentChildren;
}) {
  return (
    <a
      id={props.id}
      class={props.class ?? 'shop-link'}
      href={props.href}
      target="_blank"
      rel="noopener"
      aria-label={props.label}
    >
      {props.children}
    </a>
  );
}

/** A message that is read out as soon as it appears. */
export function Alert(props: { id: string; children: ComponentChildren }) {
  return (
    <p id={props.id} class="shop-alert" role="alert">
      {props.children}
    </p>
  );
}

export const Loading = (props: { label: string }) => (
  <p class="shop-loading" role="status">
    {props.label}
  </p>
);
