import { lazy, Suspense } from 'react';
import { Loading } from 'react-admin';

// The import screen loads when opened, not with the vendor list.
const VendorImport = lazy(() => import('./VendorImport.tsx').then((module) => ({ default: module.VendorImport })));

export function LazyVendorImport() {
  return (
    <Suspense fallback={<Loading />}>
      <VendorImport />
    </Suspense>
  );
}
