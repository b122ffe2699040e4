import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useMemo } from 'react';
import { useTranslate } from 'react-admin';
import { qrCodeOptions, vendorQrUrl } from '../../shared/qr.ts';
import { useSettings } from '../SettingsContext.tsx';
import { useCodeDownload } from './CodeDownloads.tsx';
import { QrPreview } from './QrPreview.tsx';
import type { BadgeVendor } from './styling.ts';

/** The vendor list's quick action: one vendor's code, to download as PNG or SVG. */
export function VendorQrDialog({ vendor, onClose }: { vendor: BadgeVendor; onClose: () => void }) {
  const translate = useTranslate();
  const { settings } = useSettings();
  const download = useCodeDownload();
  const url = vendorQrUrl(settings, vendor.licenseId);
  const options = useMemo(() => qrCodeOptions(url, settings, 240), [url, settings]);
  const name = `${vendor.licenseId} ${vendor.firstName} ${vendor.lastName}`.trim();
  return (
    <Dialog open onClose={onClose} aria-labelledby="vendor-qr-title">
      <DialogTitle id="vendor-qr-title">{translate('app.qr.code_of', { name })}</DialogTitle>
      <DialogContent>
        <QrPreview options={options} id="vendor-qr-code" />
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1, textAlign: 'center', wordBreak: 'break-all' }}>
          {url}
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => void download(vendor, 'png')} id="vendor-qr-png">
          {translate('app.qr.png')}
        </Button>
        <Button onClick={() => void download(vendor, 'svg')} id="vendor-qr-svg">
          {translate('app.qr.svg')}
        </Button>
        <Button variant="contained" onClick={onClose}>
          {translate('app.qr.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
