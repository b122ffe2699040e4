import type { Options } from 'qr-code-styling';
import type { PublicSettings } from './settings.ts';

/** The address on a vendor's badge: `<QRCodeUrl>/v/<licenceId>` (the shop's PUBLIC_URL when no QR address is set). */
export function vendorQrUrl(settings: Pick<PublicSettings, 'qrCodeUrl' | 'publicUrl'>, licenseId: string): string {
  const base = (settings.qrCodeUrl || settings.publicUrl).replace(/\/+$/, '');
  return `${base}/v/${encodeURIComponent(licenseId)}`;
}

/** The choices the API accepts for each styling option (api/src/settings/schema.ts). */
export const qrChoices = {
  errorCorrectionLevel: ['L', 'M', 'Q', 'H'],
  dotType: ['square', 'dots', 'rounded', 'classy', 'classy-rounded', 'extra-rounded'],
  cornerSquareType: ['square', 'dot', 'extra-rounded'],
  cornerDotType: ['square', 'dot'],
} as const;

export interface QrCodeSettings {
  errorCorrectionLevel?: (typeof qrChoices.errorCorrectionLevel)[number];
  dotColor?: string;
  backgroundColor?: string;
  dotType?: (typeof qrChoices.dotType)[number];
  cornerSquareType?: (typeof qrChoices.cornerSquareType)[number];
  cornerDotType?: (typeof qrChoices.cornerDotType)[number];
}

/** The side of a downloaded code in pixels: a badge's 4 cm printed at 600 dpi, sharp on any printer. */
export const printSize = 1200;

/** The newspaper's QR code styling (settings.qrCodeSettings) as qr-code-styling's options. */
export function qrCodeOptions(
  data: string,
  settings: Pick<PublicSettings, 'qrCodeSettings' | 'qrCodeEnableLogo' | 'qrCodeLogoImgUrl'>,
  size = 300,
): Options {
  const style = settings.qrCodeSettings as QrCodeSettings;
  return {
    width: size,
    height: size,
    type: 'svg',
    data,
    margin: 8,
    qrOptions: { errorCorrectionLevel: style.errorCorrectionLevel ?? 'M' },
    dotsOptions: { color: style.dotColor ?? '#000000', type: style.dotType ?? 'square' },
    backgroundOptions: { color: style.backgroundColor ?? '#ffffff' },
    cornersSquareOptions: { type: style.cornerSquareType ?? 'square', color: style.dotColor ?? '#000000' },
    cornersDotOptions: { type: style.cornerDotType ?? 'square', color: style.dotColor ?? '#000000' },
    ...(settings.qrCodeEnableLogo && settings.qrCodeLogoImgUrl
      ? {
          image: settings.qrCodeLogoImgUrl,
          imageOptions: { margin: 4, hideBackgroundDots: true, crossOrigin: 'anonymous' },
        }
      : {}),
  };
}
