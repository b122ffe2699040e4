import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import './style.css';

// Placeholder of the shop widget: the newspaper's name and colours from the settings, and on
// /v/<licenceId> the vendor check. The real checkout steps come with the shop issue.

interface PublicSettings {
  name: string;
  color?: string;
  fontColor?: string;
  logo: string;
}

type Vendor = { state: 'loading' } | { state: 'valid'; displayName: string } | { state: 'invalid' };

async function getJson(url: string): Promise<{ ok: boolean; body: Record<string, unknown> | null }> {
  try {
    const res = await fetch(url, { headers: { Accept: 'application/json' } });
    return { ok: res.ok, body: res.ok ? ((await res.json()) as Record<string, unknown> | null) : null };
  } catch {
    return { ok: false, body: null };
  }
}

const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

function readSettings(body: Record<string, unknown> | null): PublicSettings | null {
  const name = text(body?.newspaperName);
  if (!body || !name) return null;
  const logo = text(body.logo) ?? 'img/logo.png';
  return {
    name,
    color: text(body.color),
    fontColor: text(body.fontColor),
    // the API gives paths relative to its root ('img/logo.png', '/files/<id>')
    logo: /^(https?:)?\/\//.test(logo) || logo.startsWith('/') ? logo : `/${logo}`,
  };
}

/** The licence id in /v/<id> or /v/<id>/<step>, if the path has one. */
function licenceIdFromPath(pathname: string): string | undefined {
  const match = /^\/v\/([^/]+)/.exec(pathname);
  return match ? decodeURIComponent(match[1]) : undefined;
}

function App() {
  const [settings, setSettings] = useState<PublicSettings | null>(null);
  const licenceId = licenceIdFromPath(location.pathname);
  const [vendor, setVendor] = useState<Vendor>({ state: licenceId ? 'loading' : 'invalid' });

  useEffect(() => {
    void getJson('/api/settings/').then(({ body }) => {
      const read = readSettings(body);
      setSettings(read);
      if (read) document.title = read.name;
    });
    if (licenceId) {
      void getJson(`/api/vendors/check/${encodeURIComponent(licenceId)}/`).then(({ ok, body }) => {
        const displayName = text(body?.displayName);
        setVendor(ok && displayName ? { state: 'valid', displayName } : { state: 'invalid' });
      });
    }
  }, []);

  const header = settings?.color ? { background: settings.color, color: settings.fontColor ?? '#fff' } : undefined;
  return (
    <main id="shop-app">
      <header id="shop-header" style={header}>
        {settings && <img id="shop-logo" src={settings.logo} alt="" width={40} height={40} />}
        <span id="shop-newspaper-name">{settings?.name ?? ''}</span>
      </header>
      <section id="shop-content" aria-live="polite">
        {vendor.state === 'loading' && <p class="shop-loading">…</p>}
        {vendor.state === 'valid' && (
          <h1 id="shop-landing-title">
            Kaufe eine Zeitung bei <span id="shop-vendor-name">{vendor.displayName}</span>
          </h1>
        )}
        {vendor.state === 'invalid' && (
          <div id="shop-go-to-vendor">
            {licenceId && <h1 id="shop-invalid-id">Die gescannte ID ist nicht gültig</h1>}
            <p id="shop-go-to-vendor-text">Bitte gehe zu einem Verkäufer</p>
          </div>
        )}
      </section>
    </main>
  );
}

render(<App />, document.getElementById('shop')!);
