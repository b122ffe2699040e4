import { LinearProgress } from '@mui/material';
import { loadable } from '../common/loadable.tsx';

// The QR code screens draw with qr-code-styling: each loads, with the library, only when opened.
export const QrCodeSettings = loadable(() => import('./QrCodeSettings.tsx').then((module) => module.QrCodeSettings));
export const BadgeSheet = loadable(() => import('./BadgeSheet.tsx').then((module) => module.BadgeSheet));
export const VendorQrDialog = loadable(
  () => import('./VendorQrDialog.tsx').then((module) => module.VendorQrDialog),
  <LinearProgress />,
);
export { qrPaths } from './paths.ts';
