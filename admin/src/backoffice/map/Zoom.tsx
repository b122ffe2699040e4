import { useTranslate } from 'react-admin';
import { ZoomControl } from 'react-leaflet';

/**
 * Leaflet's zoom buttons, titled in the reader's language: Leaflet's own say "Zoom in" and
 * "Zoom out" in English, and its title is also the button's accessible name.
 */
export function Zoom() {
  const translate = useTranslate();
  return (
    <ZoomControl
      position="topleft"
      zoomInTitle={translate('app.map.zoom_in')}
      zoomOutTitle={translate('app.map.zoom_out')}
    />
  );
}
