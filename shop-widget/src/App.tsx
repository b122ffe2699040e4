import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Route } from './route.ts';
import { stepPath } from './route.ts';
import {
  assetUrl,
  env,
  flowOf,
  lang,
  loadVendor,
  navigate,
  path,
  rememberVendor,
  route,
  setLang,
  t,
  vendorState,
} from './store.ts';
import { GoToVendor } from './pages/GoToVendor.tsx';
import { Maintenance } from './pages/Maintenance.tsx';
import { ErrorPage, InvalidLink, NotFound } from './pages/Problems.tsx';
import { stepScreens } from './steps/index.ts';
import { Loading } from './ui.tsx';

const languages = { de: 'Deutsch', en: 'English' } as const;

/**
 * German or English: with the script at once; without it a form the server answers (it keeps the
 * choice and shows the same page again), so the switch works wherever the page is.
 */
function LanguageSwitch() {
  const url = new URL(path.value, 'http://shop.invalid');
  return (
    <form id="shop-language-form" method="get" action={env.mode === 'page' ? url.pathname : undefined}>
      {[...url.searchParams].map(
        ([name, value]) => name !== 'lang' && <input key={name} type="hidden" name={name} value={value} />,
      )}
      <div id="shop-language" class="shop-language" role="group" aria-label={t('language')}>
        {(Object.keys(languages) as (keyof typeof languages)[]).map((code) => (
          <button
            type="submit"
            key={code}
            name="lang"
            value={code}
            class="shop-language-button"
            data-lang={code}
            lang={code}
            // The visible code first: a name that holds what is seen is what voice control users say.
            aria-label={`${code.toUpperCase()} – ${languages[code]}`}
            aria-pressed={lang.value === code}
            onClick={(event) => {
              event.preventDefault();
              setLang(code);
            }}
          >
            {code.toUpperCase()}
          </button>
        ))}
      </div>
    </form>
  );
}

/** A vendor's shop: checked once per licence id (the page's own vendor came with the boot data). */
function VendorShop(props: { route: Extract<Route, { page: 'vendor' }> }) {
  const { id, step } = props.route;
  const vendor = vendorState(id);
  useEffect(() => {
    // Asked again after a failure: the error page's way on leads back here.
    const known = vendorState(id);
    if (known === undefined || known === 'failed') loadVendor(id);
  }, [id]);
  const valid = vendor && typeof vendor === 'object';
  useEffect(() => {
    if (valid) rememberVendor(id);
    if (valid && step === 'check-id') navigate(stepPath(id, 'landing-page'), true);
  }, [valid, step, id]);
  if (vendor === undefined || vendor === 'loading') return <Loading label={t('loading')} />;
  if (vendor === 'failed') return <ErrorPage />;
  if (vendor === null) return <GoToVendor invalidId />;
  const Step = stepScreens[step];
  return <Step vendor={vendor} flow={flowOf(vendor.licenseId)} route={props.route} />;
}

type AfterPayment = typeof import('./pages/after-payment.ts');
let afterPayment: AfterPayment | undefined;

/**
 * A page after the card page, once its script is here. A customer who has paid must not meet an
 * error for a dropped connection: a failed load is tried again after 1, 2, 4, then every 5 s.
 */
function Later(props: { page: (pages: AfterPayment) => JSX.Element }) {
  const [pages, setPages] = useState<AfterPayment | undefined>(afterPayment);
  const [interrupted, setInterrupted] = useState(false);
  useEffect(() => {
    if (afterPayment) return;
    let gone = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const load = (failures: number): void =>
      void import('./pages/after-payment.ts').then(
        (loaded) => !gone && setPages((afterPayment = loaded)),
        () => {
          if (gone) return;
          setInterrupted(true);
          retry = setTimeout(() => load(failures + 1), Math.min(5000, 1000 * 2 ** failures));
        },
      );
    load(0);
    return () => {
      gone = true;
      clearTimeout(retry);
    };
  }, []);
  if (pages) return props.page(pages);
  return interrupted ? (
    <p id="shop-page-interrupted" class="shop-loading" role="status">
      {t('connectionLost')}
    </p>
  ) : (
    <Loading label={t('loading')} />
  );
}

function Content() {
  const current = route.value;
  // A closed shop takes no new orders; paid customers still reach their receipts and PDFs.
  const closed = env.boot.settings.webshopIsClosed;
  switch (current.page) {
    case 'vendor':
      return closed ? <Maintenance /> : <VendorShop route={current} />;
    case 'go-to-vendor':
      return closed ? <Maintenance /> : <GoToVendor />;
    case 'receipt':
      return <Later page={(pages) => <pages.ReceiptPage order={current.order} />} />;
    case 'success':
      return <Later page={(pages) => <pages.Success order={current.order} sessionId={current.sessionId} />} />;
    case 'failure':
      return <Later page={(pages) => <pages.Failure order={current.order} />} />;
    case 'pdf':
      return <Later page={(pages) => <pages.Pdf id={current.id} />} />;
    case 'not-found':
      return <NotFound vendor={current.vendor} />;
    case 'error':
      return <ErrorPage />;
    case 'invalid-link':
      return <InvalidLink />;
    case 'maintenance':
      return <Maintenance />;
  }
}

/** The newspaper's header, colours and language around a screen of the shop. */
export function Frame(props: { children: ComponentChildren }) {
  const { settings } = env.boot;
  const logo = assetUrl(settings.logo);
  const Main = env.mode === 'page' ? 'main' : 'div';
  const colours = { '--shop-color': settings.color || '#000', '--shop-font-color': settings.fontColor || '#fff' };
  return (
    <div id="shop-app" class={`shop shop-${env.mode}`} lang={lang.value} style={colours}>
      <header id="shop-header" class="shop-header">
        {logo && <img id="shop-logo" src={logo} alt="" width={40} height={40} />}
        <span id="shop-newspaper-name">{settings.newspaperName}</span>
        <LanguageSwitch />
      </header>
      <Main id="shop-content" class="shop-content" key={path.value}>
        {props.children}
      </Main>
    </div>
  );
}

export function App() {
  return (
    <Frame>
      <Content />
    </Frame>
  );
}
