import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createLogin, groupsOf } from '../auth/login.ts';
import { setTimeZone } from '../shared/dates.ts';
import { storedLocale } from '../shared/locale.ts';
import { loadPublicSettings, setDocumentTitle, setFavicon } from '../shared/settings.ts';
import { App } from './App.tsx';
import './me.css';

function fail(message: string, retry = false) {
  const box = document.getElementById('root')!;
  box.replaceChildren();
  const text = document.createElement('p');
  text.className = 'me-problem';
  text.setAttribute('role', 'alert');
  text.textContent = message;
  box.append(text);
  if (retry) {
    const again = document.createElement('a');
    again.href = '/me';
    again.textContent = storedLocale() === 'en' ? 'Log in again' : 'Erneut anmelden';
    box.append(again);
  }
}

/**
 * The vendor area: settings → login (or its callback) → the page. A staff login belongs in the back
 * office and is sent there; before the login only a loading animation shows.
 */
async function start() {
  const en = storedLocale() === 'en';
  // Only the page's language: storing it would count as the vendor's own choice and hide the office's.
  document.documentElement.lang = storedLocale();
  let settings;
  try {
    settings = await loadPublicSettings();
  } catch {
    return fail(
      en
        ? 'The server cannot be reached. Please try again later.'
        : 'Der Server ist nicht erreichbar. Bitte versuche es später erneut.',
    );
  }
  setTimeZone(settings.timeZone);
  setFavicon(settings);
  setDocumentTitle(settings.newspaperName, undefined, 'Straßenzeitung');
  // /dashboard is everyone's entrance: after the login, vendors see /me and staff the back office.
  if (window.location.pathname.replace(/\/+$/, '') === '/dashboard') window.history.replaceState(null, '', '/me');
  const login = createLogin(settings.identityProvider, 'me');
  if (window.location.pathname === '/me/auth-callback') {
    try {
      const { returnTo } = await login.completeSignIn();
      window.history.replaceState(null, '', returnTo === '/' ? '/me' : `/me${returnTo}`);
    } catch {
      return fail(
        en
          ? 'The login could not be completed. It may have expired.'
          : 'Die Anmeldung konnte nicht abgeschlossen werden. Vielleicht ist sie abgelaufen.',
        true,
      );
    }
  }
  const user = await login.user().catch(() => null);
  if (!user) return login.signIn(login.currentPath());
  const groups = groupsOf(user);
  if (!groups.includes('vendor') && groups.includes('backoffice'))
    return window.location.replace('/backoffice/vendorsummary');
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App login={login} settings={settings} />
    </StrictMode>,
  );
}

void start();
