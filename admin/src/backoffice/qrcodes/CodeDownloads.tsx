import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Card,
  CardContent,
  LinearProgress,
  TextField,
  Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { printSize, qrCodeOptions, vendorQrUrl } from '../../shared/qr.ts';
import { useSettings } from '../SettingsContext.tsx';
import { qrPaths } from './paths.ts';
import { codeBlob, CodeFailure, codeFileName, drawingLimitSeconds, type CodeFormat } from '../../shared/code-file.ts';
import { saveBlob } from '../../shared/save-file.ts';
import { activeVendors, type BadgeVendor } from './styling.ts';

const vendorLabel = (vendor: BadgeVendor) => `${vendor.licenseId} · ${vendor.firstName} ${vendor.lastName}`.trim();

/** Says why a code could not be made, in the reader's language where the reason is ours. */
function useCodeFailure() {
  const notify = useNotify();
  const translate = useTranslate();
  return (error: unknown) => {
    const message =
      error instanceof CodeFailure
        ? translate(`app.qr.${error.key}`, { seconds: drawingLimitSeconds })
        : (error as Error).message;
    notify('app.qr.failed', { type: 'error', messageArgs: { message } });
  };
}

/** One vendor's code as PNG or SVG, with the saved settings. */
export function useCodeDownload() {
  const { settings } = useSettings();
  const failed = useCodeFailure();
  return async (vendor: BadgeVendor, format: CodeFormat) => {
    try {
      saveBlob(
        await codeBlob(qrCodeOptions(vendorQrUrl(settings, vendor.licenseId), settings, printSize), format),
        codeFileName(vendor.licenseId, format),
      );
    } catch (error) {
      failed(error);
    }
  };
}

/**
 * Downloads with the saved settings: one vendor's code, the badge sheet of all active vendors
 * (a print page), and all codes as PNGs in one ZIP.
 */
export function CodeDownloads() {
  const translate = useTranslate();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const { settings } = useSettings();
  const download = useCodeDownload();
  const failed = useCodeFailure();
  const [vendors, setVendors] = useState<BadgeVendor[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [chosen, setChosen] = useState<BadgeVendor | null>(null);
  const [zipped, setZipped] = useState<number | null>(null);

  useEffect(() => {
    activeVendors(dataProvider).then(setVendors, (error: Error) => setFailure(error.message));
  }, [dataProvider]);

  const zipAll = async () => {
    if (!vendors) return;
    setZipped(0);
    try {
      const { zipSync } = await import('fflate');
      const files: Record<string, [Uint8Array, { level: 0 }]> = {};
      for (const vendor of vendors) {
        const png = await codeBlob(qrCodeOptions(vendorQrUrl(settings, vendor.licenseId), settings, printSize), 'png');
        // PNG is compressed already: stored as it is.
        files[codeFileName(vendor.licenseId, 'png')] = [new Uint8Array(await png.arrayBuffer()), { level: 0 }];
        setZipped((done) => (done ?? 0) + 1);
      }
      saveBlob(new Blob([zipSync(files)], { type: 'application/zip' }), 'qr-codes.zip');
      notify('app.qr.zip_done', { type: 'success', messageArgs: { count: vendors.length } });
    } catch (error) {
      failed(error);
    } finally {
      setZipped(null);
    }
  };

  return (
    <Card id="qr-downloads" sx={{ mt: 2 }}>
      <CardContent sx={{ display: 'grid', gap: 2, maxWidth: 760 }}>
        <Typography variant="h6">{translate('app.qr.download_title')}</Typography>
        {failure && <Alert severity="error">{failure}</Alert>}
        {vendors && vendors.length === 0 && <Alert severity="info">{translate('app.qr.no_vendors')}</Alert>}
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
          <Autocomplete
            id="qr-vendor"
            options={vendors ?? []}
            loading={!vendors && !failure}
            value={chosen}
            onChange={(_event, vendor) => setChosen(vendor)}
            getOptionLabel={vendorLabel}
            isOptionEqualToValue={(option, value) => option.id === value.id}
            sx={{ flex: '1 1 260px' }}
            renderInput={(params) => <TextField {...params} label={translate('app.qr.vendor')} size="small" />}
          />
          <Button
            variant="outlined"
            disabled={!chosen}
            onClick={() => chosen && void download(chosen, 'png')}
            id="qr-download-png"
          >
            {translate('app.qr.png')}
          </Button>
          <Button
            variant="outlined"
            disabled={!chosen}
            onClick={() => chosen && void download(chosen, 'svg')}
            id="qr-download-svg"
          >
            {translate('app.qr.svg')}
          </Button>
        </Box>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          <Button variant="contained" component={Link} to={qrPaths.badges} id="qr-badges" disabled={!vendors?.length}>
            {translate('app.qr.badges')}
          </Button>
          <Button
            variant="outlined"
            onClick={() => void zipAll()}
            disabled={!vendors?.length || zipped !== null}
            id="qr-zip"
          >
            {translate('app.qr.zip')}
          </Button>
        </Box>
        {zipped !== null && vendors && (
          <Box role="status">
            <Typography variant="body2">
              {translate('app.qr.zip_progress', { done: zipped, total: vendors.length })}
            </Typography>
            <LinearProgress variant="determinate" value={(zipped / vendors.length) * 100} />
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
