import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createLogin } from '../auth/login.ts';
import { setTimeZone } from '../shared/dates.ts';
import { rememberLocale, storedLocale } from '../shared/locale.ts';
import { loadPublicSettings, setDocumentTitle, setFavicon } from '../shared/settings.ts';
import { App } from './App.tsx';
import { loadMessages } from './i18n/index.ts';

async function start() {
  const root = createRoot(document.getElementById('root')!);
  rememberLocale(storedLocale());
  try {
    // The settings and the texts of the language the back office opens in, fetched side by side.
    const [settings, messages] = await Promise.all([loadPublicSettings(), loadMessages(storedLocale())]);
    setTimeZone(settings.timeZone);
    setFavicon(settings);
    setDocumentTitle(settings.newspaperName, undefined, 'Backoffice');
    const login = createLogin(settings.identityProvider, 'backoffice');
    root.render(
      <StrictMode>
        <App login={login} initialSettings={settings} messages={messages} />
      </StrictMode>,
    );
  } catch (error) {
    console.error(error);
    document.getElementById('boot-failed')!.hidden = false;
    root.unmount();
  }
}

void start();
