import { randomBytes } from 'node:crypto';
import { colourPattern } from '../../foundations/form-fields.ts';

// The embedded provider's own pages (login, logout, errors): server-rendered HTML without any
// framework, German by default, every value escaped.

export type Lang = 'de' | 'en';

/** A wait in whole seconds under a minute (the account's first delays), else in whole minutes. */
function waitText(seconds: number, [second, secondsWord]: string[], [minute, minutes]: string[]): string {
  if (seconds < 60) return `${seconds} ${seconds === 1 ? second : secondsWord}`;
  const whole = Math.ceil(seconds / 60);
  return `${whole} ${whole === 1 ? minute : minutes}`;
}

export const texts = {
  de: {
    login: 'Anmelden',
    username: 'Benutzername',
    password: 'Passwort',
    submit: 'Anmelden',
    wrongCredentials: 'Benutzername oder Passwort ist falsch.',
    throttled: (seconds: number) =>
      `Zu viele Fehlversuche. Bitte warte ${waitText(seconds, ['Sekunde', 'Sekunden'], ['Minute', 'Minuten'])}.`,
    expired:
      'Diese Anmeldung ist abgelaufen. Bitte öffne die Seite, von der du gekommen bist, und melde dich erneut an.',
    logout: 'Abmelden',
    logoutQuestion: 'Möchtest du dich abmelden?',
    loggedOut: 'Du bist abgemeldet.',
    toBackoffice: 'Zur Anmeldung',
    error: 'Bei der Anmeldung ist ein Fehler aufgetreten.',
    other: { lang: 'en', name: 'English' },
  },
  en: {
    login: 'Log in',
    username: 'Username',
    password: 'Password',
    submit: 'Log in',
    wrongCredentials: 'Wrong username or password.',
    throttled: (seconds: number) =>
      `Too many failed attempts. Please wait ${waitText(seconds, ['second', 'seconds'], ['minute', 'minutes'])}.`,
    expired: 'This login has expired. Please go back to the page you came from and log in again.',
    logout: 'Log out',
    logoutQuestion: 'Do you want to log out?',
    loggedOut: 'You are logged out.',
    toBackoffice: 'To the login',
    error: 'Something went wrong while logging in.',
    other: { lang: 'de', name: 'Deutsch' },
  },
} as const;

/**
 * The language of a page: an explicit choice (the switch link) first, then the first supported
 * entry of the authorization request's `ui_locales`, else German.
 */
export function pickLang(choice: unknown, uiLocales?: unknown): Lang {
  if (choice === 'de' || choice === 'en') return choice;
  for (const tag of typeof uiLocales === 'string' ? uiLocales.split(/\s+/) : []) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'de' || base === 'en') return base;
  }
  return 'de';
}

export function escapeHtml(value: string | number | null | undefined): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The newspaper's look, from its public settings. */
export interface Brand {
  newspaperName: string;
  logo: string;
  favicon: string | null;
  color: string;
  fontColor: string;
}

export interface Page {
  html: string;
  /** Content-Security-Policy for exactly this page (its inline style and script carry a nonce). */
  csp: string;
}

const safeColour = (value: string, fallback: string) => (colourPattern.test(value) ? value : fallback);
// Settings keep the default logo as a relative path; these pages live deeper than the site root.
const rooted = (url: string) => (/^(https?:)?\//.test(url) ? url : `/${url}`);

function layout(
  lang: Lang,
  brand: Brand,
  title: string,
  main: string,
  options: { switchHref?: string; script?: string } = {},
): Page {
  const nonce = randomBytes(16).toString('base64');
  const t = texts[lang];
  const colour = safeColour(brand.color, '#000000');
  const fontColour = safeColour(brand.fontColor, '#ffffff');
  const name = brand.newspaperName || t.login;
  const switchLink = options.switchHref
    ? `<a class="lang" href="${escapeHtml(options.switchHref)}" lang="${t.other.lang}" hreflang="${t.other.lang}">${t.other.name}</a>`
    : '';
  const html = `<!DOCTYPE html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(name)} | ${escapeHtml(title)}</title>
<link rel="icon" href="${escapeHtml(rooted(brand.favicon ?? brand.logo))}">
<style nonce="${nonce}">
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f4f4;color:#1a1a1a}
header{background:${colour};color:${fontColour};padding:1rem;display:flex;align-items:center;gap:.75rem}
header img{width:48px;height:48px;object-fit:contain;background:#fff;border-radius:4px}
header p{margin:0;font-size:1.25rem;font-weight:700;flex:1}
header a.lang{color:${fontColour};font-weight:600}
main{max-width:24rem;margin:1.5rem auto;padding:0 1rem}
h1{font-size:1.5rem;margin:0 0 1rem}
label{display:block;font-weight:600;margin:1rem 0 .25rem}
input{width:100%;font:inherit;padding:.75rem;border:2px solid #767676;border-radius:6px;background:#fff;color:#1a1a1a}
input:focus,button:focus,a:focus{outline:3px solid #1a5fb4;outline-offset:2px}
button{margin-top:1.5rem;width:100%;font:inherit;font-weight:700;padding:.85rem;border:0;border-radius:6px;background:${colour};color:${fontColour};cursor:pointer}
.alert{margin:0 0 1rem;padding:.75rem;border-radius:6px;background:#fdecea;color:#8a1c12;border:2px solid #c62828;font-weight:600}
</style>
</head>
<body>
<header><img src="${escapeHtml(rooted(brand.logo))}" alt=""><p>${escapeHtml(name)}</p>${switchLink}</header>
<main>
${main}
</main>
${options.script ? `<script nonce="${nonce}">${options.script}</script>` : ''}
</body>
</html>`;
  const csp = [
    "default-src 'none'",
    "img-src 'self'",
    `style-src 'nonce-${nonce}'`,
    options.script ? `script-src 'nonce-${nonce}'` : '',
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ]
    .filter(Boolean)
    .join('; ');
  return { html, csp };
}

export function loginPage(options: {
  lang: Lang;
  brand: Brand;
  action: string;
  switchHref: string;
  username?: string;
  error?: string;
}): Page {
  const { lang, error } = options;
  const t = texts[lang];
  const describedBy = error ? ' aria-describedby="login-error" aria-invalid="true"' : '';
  const main = `<h1>${t.login}</h1>
${error ? `<p class="alert" id="login-error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${escapeHtml(options.action)}">
<input type="hidden" name="lang" value="${lang}">
<label for="username">${t.username}</label>
<input id="username" name="username" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required value="${escapeHtml(options.username ?? '')}"${describedBy}${options.username ? '' : ' autofocus'}>
<label for="password">${t.password}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${describedBy}${options.username ? ' autofocus' : ''}>
<button type="submit">${t.submit}</button>
</form>`;
  return layout(lang, options.brand, t.login, main, { switchHref: options.switchHref });
}

/** A page with one message, e.g. an expired login or an error, optionally with a link onwards. */
export function messagePage(options: {
  lang: Lang;
  brand: Brand;
  title: string;
  message: string;
  alert?: boolean;
  link?: { href: string; text: string };
}): Page {
  const main = `<h1>${escapeHtml(options.title)}</h1>
<p${options.alert ? ' class="alert" role="alert"' : ''}>${escapeHtml(options.message)}</p>
${options.link ? `<p><a href="${escapeHtml(options.link.href)}">${escapeHtml(options.link.text)}</a></p>` : ''}`;
  return layout(options.lang, options.brand, options.title, main);
}

/**
 * The logout confirmation around oidc-provider's form (which carries its anti-forgery token). When the
 * back office asked for the logout with its ID token, the page confirms itself at once; a bare link
 * from elsewhere cannot log anyone out without their click.
 */
export function logoutPage(options: { lang: Lang; brand: Brand; form: string; confirmAtOnce: boolean }): Page {
  const t = texts[options.lang];
  const main = `<h1>${t.logout}</h1>
<p>${t.logoutQuestion}</p>
${options.form}
<button id="logout" type="submit" form="op.logoutForm" name="logout" value="yes">${t.logout}</button>`;
  const script = options.confirmAtOnce
    ? `document.getElementById('op.logoutForm').requestSubmit(document.getElementById('logout'));`
    : undefined;
  return layout(options.lang, options.brand, t.logout, main, { script });
}
