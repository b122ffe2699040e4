import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createLogin } from '../auth/login.ts';
import { rememberLocale, storedLocale } from '../shared/locale.ts';
import { loadPublicSettings, setDocumentTitle, setFavicon } from '../shared/settings.ts';
import { App } from './App.tsx';

async function start() {
  const root = createRoot(document.getElementById('root')!);
  rememberLocale(storedLocale());
  try {
    const settings = await loadPublicSettings();
    setFavicon(settings);
    setDocumentTitle(settings.newspaperName, undefined, 'Backoffice');
    const login = createLogin(settings.identityProvider, 'backoffice');
    root.render(
      <StrictMode>
        <App login={login} initialSettings={settings} />
      </StrictMode>,
    );
  } catch (error) {
    console.error(error);
    document.getElementById('boot-failed')!.hidden = false;
    root.unmount();
  }
}

void start();
