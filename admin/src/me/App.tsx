import { useCallback, useEffect, useMemo, useRef, useState, type CSSProperties, type MouseEvent } from 'react';
import type { Login } from '../auth/login.ts';
import { chosenLocale, rememberLocale, storedLocale, type Locale } from '../shared/locale.ts';
import { assetUrl, setDocumentTitle, type PublicSettings } from '../shared/settings.ts';
import { ApiError, createApi, createPageApi, type OwnVendor } from './api.ts';
import { Info } from './pages/Info.tsx';
import { Profile } from './pages/Profile.tsx';
import { QrCode } from './pages/QrCode.tsx';
import { Statements } from './pages/Statements.tsx';
import { texts, textsFor } from './texts.ts';

const pages = {
  '/me': 'info',
  '/me/statements': 'statements',
  '/me/qrcode': 'qrcode',
  '/me/profile': 'profile',
} as const;
type Page = (typeof pages)[keyof typeof pages];
const pageOf = (path: string): Page => pages[path.replace(/\/+$/, '') as keyof typeof pages] ?? 'info';

/** Four pages need no router library: the address is the state, links push it. */
function usePath(): [string, (path: string) => void] {
  const [path, setPath] = useState(window.location.pathname);
  useEffect(() => {
    const back = () => setPath(window.location.pathname);
    window.addEventListener('popstate', back);
    return () => window.removeEventListener('popstate', back);
  }, []);
  const navigate = useCallback((next: string) => {
    window.history.pushState(null, '', next);
    setPath(next);
    window.scrollTo(0, 0);
  }, []);
  return [path, navigate];
}

/** The vendor area: credit, statements, QR code and profile, phone-first, in the newspaper's colours. */
export function App({ login, settings }: { login: Login; settings: PublicSettings }) {
  const [locale, setLocale] = useState<Locale>(storedLocale());
  const t = textsFor(locale, settings.useTipInsteadOfDonation);
  const [path, navigate] = usePath();
  const page = pageOf(path);
  const get = useMemo(() => createApi(login), [login]);
  const openPage = useMemo(() => createPageApi(login), [login]);
  const [vendor, setVendor] = useState<OwnVendor | null>(null);
  const [problem, setProblem] = useState<'noAccess' | 'error' | null>(null);

  // The vendor is read on arrival, and again whenever they come back to their credit.
  const onInfo = page === 'info';
  const loaded = useRef(false);
  useEffect(() => {
    if (!onInfo && loaded.current) return;
    loaded.current = true;
    get<OwnVendor>('/api/vendors/me').then(
      (own) => {
        setVendor(own);
        // The office chose the vendor's language; a choice made on this device still wins.
        if (!chosenLocale()) setLocale(own.language);
      },
      (error) => setProblem(error instanceof ApiError && error.status === 403 ? 'noAccess' : 'error'),
    );
  }, [get, onInfo]);

  useEffect(() => {
    setDocumentTitle(settings.newspaperName, t[page], texts[locale].info);
    document.documentElement.lang = locale;
  }, [settings.newspaperName, t, page, locale]);

  const choose = (next: Locale) => {
    rememberLocale(next);
    setLocale(next);
  };
  const link = (to: string, label: string, id: string) => (
    <a
      href={to}
      id={id}
      aria-current={pageOf(to) === page ? 'page' : undefined}
      onClick={(event: MouseEvent) => {
        event.preventDefault();
        navigate(to);
      }}
    >
      {label}
    </a>
  );

  return (
    <div className="me" style={{ '--brand': settings.color, '--brand-text': settings.fontColor } as CSSProperties}>
      <header className="me-header">
        {/* Its box is known before the logo arrives: nothing below moves when it does. */}
        <img src={assetUrl(settings.logo)} alt="" width={72} height={32} />
        <span id="me-newspaper-name">{settings.newspaperName}</span>
        <div className="me-languages" role="group" aria-label="Sprache / Language">
          {(['de', 'en'] as const).map((code) => (
            <button
              key={code}
              type="button"
              lang={code}
              aria-pressed={code === locale}
              onClick={() => choose(code)}
              id={`me-lang-${code}`}
            >
              {code.toUpperCase()}
            </button>
          ))}
        </div>
      </header>
      <nav className="me-nav">
        {link('/me', t.info, 'me-nav-info')}
        {link('/me/statements', t.statements, 'me-nav-statements')}
        {link('/me/qrcode', t.qrcode, 'me-nav-qrcode')}
        {link('/me/profile', t.profile, 'me-nav-profile')}
      </nav>
      <main className="me-main">
        {/* The logout beside the title, above what loads: it never moves once drawn. */}
        <div className="me-title-row">
          <h1 id="me-title">
            {t[page]}
            {vendor && <small> · {vendor.firstName || vendor.licenseId}</small>}
          </h1>
          <button type="button" className="me-logout" onClick={() => void login.signOut()} id="me-logout">
            {t.logout}
          </button>
        </div>
        {problem && (
          <p className="me-problem" role="alert" id="me-problem">
            {t[problem]}
          </p>
        )}
        {!problem && !vendor && <div className="me-spinner" role="progressbar" aria-busy="true" />}
        {vendor && page === 'info' && (
          <Info vendor={vendor} get={get} t={t} locale={locale} currency={settings.currency} />
        )}
        {vendor && page === 'statements' && <Statements get={get} openPage={openPage} t={t} locale={locale} />}
        {vendor && page === 'qrcode' && <QrCode vendor={vendor} settings={settings} t={t} locale={locale} />}
        {vendor && page === 'profile' && <Profile vendor={vendor} t={t} locale={locale} />}
      </main>
    </div>
  );
}
