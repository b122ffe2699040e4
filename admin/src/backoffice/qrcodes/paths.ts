// The QR code screens' addresses below /backoffice (the specification leaves them open).
export const qrPaths = {
  settings: '/settings/qrcode',
  badges: '/settings/qrcode/badges',
};
