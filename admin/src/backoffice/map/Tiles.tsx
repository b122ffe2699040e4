import 'leaflet/dist/leaflet.css';
import L from 'leaflet';
import markerIcon2x from 'leaflet/dist/images/marker-icon-2x.png';
import markerIcon from 'leaflet/dist/images/marker-icon.png';
import markerShadow from 'leaflet/dist/images/marker-shadow.png';
import { TileLayer } from 'react-leaflet';
import { useSettings } from '../SettingsContext.tsx';

// Imported only by the lazily loaded map screens: leaflet is far too heavy for the first screen.

// Leaflet finds its marker images by a path guessed from its CSS, which a bundler breaks.
L.Icon.Default.mergeOptions({ iconUrl: markerIcon, iconRetinaUrl: markerIcon2x, shadowUrl: markerShadow });

/** The map tiles the newspaper's settings name (`mapTileUrl`). */
export function Tiles() {
  const { settings } = useSettings();
  return (
    <TileLayer
      url={settings.mapTileUrl}
      attribution='&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>'
    />
  );
}
