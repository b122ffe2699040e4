import { Alert, Box, LinearProgress, Typography } from '@mui/material';
import { useEffect, useMemo, useState } from 'react';
import { Title, useDataProvider, useTranslate } from 'react-admin';
import { MapContainer } from 'react-leaflet';
import { useNavigate } from 'react-router-dom';
import { PageTitle } from '../layout/PageTitle.tsx';
import { vendorPaths } from '../vendors/paths.ts';
import { ClusterLayer, type MapMarker } from './ClusterLayer.tsx';
import { Tiles } from './Tiles.tsx';
import { Zoom } from './Zoom.tsx';
import type { ShopDataProvider } from '../dataProvider.ts';

interface MapVendor {
  id: number;
  licenseId: string;
  firstName: string;
  lastName: string;
  locations: { id: number; name: string; address: string; latitude: number; longitude: number }[];
}

interface MapAnswer {
  center: { lat: number; long: number };
  vendors: MapVendor[];
}

type Loaded = { state: 'loading' } | { state: 'error'; message: string } | { state: 'done'; map: MapAnswer };

/** The popup: who sells here, where, and a link to their profile that stays inside the app. */
function popupOf(
  vendor: MapVendor,
  location: MapVendor['locations'][number],
  linkText: string,
  open: (path: string) => void,
): HTMLElement {
  const box = document.createElement('div');
  const name = box.appendChild(document.createElement('strong'));
  name.textContent = `${vendor.firstName} ${vendor.lastName} (${vendor.licenseId})`;
  const place = box.appendChild(document.createElement('div'));
  place.textContent = [location.name, location.address].filter(Boolean).join(', ');
  const link = box.appendChild(document.createElement('a'));
  const path = vendorPaths.show(vendor.id);
  link.href = `/backoffice${path}`;
  link.textContent = linkText;
  link.className = 'map-vendor-link';
  link.addEventListener('click', (event) => {
    event.preventDefault();
    open(path);
  });
  return box;
}

/** Where the vendors on the online map sell, loaded only when this screen opens (see LazyMap.tsx). */
export default function MapPage() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const navigate = useNavigate();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });

  useEffect(() => {
    let current = true;
    (dataProvider.call('/api/map') as Promise<MapAnswer>).then(
      (map) => current && setLoaded({ state: 'done', map }),
      (error: Error) => current && setLoaded({ state: 'error', message: error.message }),
    );
    return () => {
      current = false;
    };
  }, [dataProvider]);

  // Memoised: a new empty list on each render would rebuild the markers each time.
  const vendors = useMemo(() => (loaded.state === 'done' ? loaded.map.vendors : []), [loaded]);
  const linkText = translate('app.map.profile');
  const markers = useMemo<MapMarker[]>(
    () =>
      vendors.flatMap((vendor) =>
        vendor.locations.map((location) => ({
          key: `${vendor.licenseId} ${location.name}`,
          lat: location.latitude,
          lng: location.longitude,
          popup: () => popupOf(vendor, location, linkText, (path) => void navigate(path)),
        })),
      ),
    [vendors, linkText, navigate],
  );

  return (
    <Box sx={{ mt: 1 }}>
      <Title title={<PageTitle page="app.page.map" />} />
      {loaded.state === 'loading' && <LinearProgress id="map-loading" />}
      {loaded.state === 'error' && (
        <Alert severity="error">{translate('app.map.failed', { message: loaded.message })}</Alert>
      )}
      {loaded.state === 'done' && (
        <>
          <Typography id="map-summary" sx={{ my: 1 }}>
            {markers.length
              ? translate('app.map.summary', {
                  vendors: vendors.filter((vendor) => vendor.locations.length).length,
                  locations: markers.length,
                })
              : translate('app.map.empty')}
          </Typography>
          <MapContainer
            id="vendor-map"
            center={[loaded.map.center.lat, loaded.map.center.long]}
            zoom={13}
            zoomControl={false}
            style={{ height: 'calc(100vh - 190px)', minHeight: 360, width: '100%' }}
          >
            <Tiles />
            <Zoom />
            <ClusterLayer markers={markers} />
          </MapContainer>
        </>
      )}
    </Box>
  );
}
