import { lazy, Suspense } from 'react';
import { Loading } from 'react-admin';

// Leaflet and its clusters load when the map is opened, not with the back office.
const MapPage = lazy(() => import('./MapPage.tsx'));

export function LazyMap() {
  return (
    <Suspense fallback={<Loading />}>
      <MapPage />
    </Suspense>
  );
}
