import { stepPath } from '../route.ts';
import { env, lastVendor, t } from '../store.ts';
import { External, Go } from '../ui.tsx';

/** With no vendor known: how to reach one, and the newspaper's page that lists them if it has one. */
export function FindVendor() {
  const help = env.boot.settings.vendorNotFoundHelpUrl;
  return (
    <>
      <p id="shop-how-to-go-on">{t('howToGoOn')}</p>
      {help && (
        <External id="shop-vendor-help" class="shop-button shop-primary" href={help}>
          {t('findVendor')}
        </External>
      )}
    </>
  );
}

/**
 * The way on from a page where the shop cannot continue (in-app QR scanners have no Back button):
 * the vendor's shop when one is known in this browser or was named, else how to find one.
 */
export function WayOn(props: { vendor?: string }) {
  const vendor = props.vendor ?? lastVendor();
  if (!vendor) return <FindVendor />;
  return (
    <Go id="shop-way-on" class="shop-button shop-primary" to={stepPath(vendor, 'landing-page')}>
      {t('backToShop')}
    </Go>
  );
}
