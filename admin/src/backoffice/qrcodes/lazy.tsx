import { LinearProgress } from '@mui/material';
import { lazy, Suspense, type ComponentProps, type ComponentType } from 'react';

/**
 * The QR code screens draw with qr-code-styling: each loads, with the library, only when opened
 * (the first screen of the back office must not carry it).
 */
function loadable<P extends object>(load: () => Promise<ComponentType<P>>) {
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  return (props: P) => (
    <Suspense fallback={<LinearProgress />}>
      <Lazy {...(props as ComponentProps<typeof Lazy>)} />
    </Suspense>
  );
}

export const QrCodeSettings = loadable(() => import('./QrCodeSettings.tsx').then((module) => module.QrCodeSettings));
export const BadgeSheet = loadable(() => import('./BadgeSheet.tsx').then((module) => module.BadgeSheet));
export const VendorQrDialog = loadable(() => import('./VendorQrDialog.tsx').then((module) => module.VendorQrDialog));
export { qrPaths } from './paths.ts';
