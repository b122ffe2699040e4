import { Alert, Box, Button, CircularProgress, GlobalStyles, Typography } from '@mui/material';
import { useEffect, useMemo, useState } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import { Link, useSearchParams } from 'react-router-dom';
import { qrCodeOptions, vendorQrUrl } from '../../shared/qr.ts';
import { PageTitle } from '../layout/PageTitle.tsx';
import { useSettings } from '../SettingsContext.tsx';
import { qrPaths } from './paths.ts';
import { QrPreview } from './QrPreview.tsx';
import { activeVendors, chosenVendors, type BadgeVendor } from './styling.ts';

/** A4 with 10 mm margins: three badges across, cut along the dashed lines. */
const printStyles = (
  <GlobalStyles
    styles={{
      '@page': { size: 'A4', margin: '10mm' },
      '@media print': { '.badge-sheet-toolbar': { display: 'none !important' }, body: { background: '#fff' } },
    }}
  />
);

function Badge({ vendor }: { vendor: BadgeVendor }) {
  const { settings } = useSettings();
  const translate = useTranslate();
  const options = useMemo(
    () => qrCodeOptions(vendorQrUrl(settings, vendor.licenseId), settings, 180),
    [settings, vendor.licenseId],
  );
  return (
    <Box
      className="badge"
      data-licence-id={vendor.licenseId}
      sx={{
        border: '1px dashed #999',
        p: 1.5,
        textAlign: 'center',
        breakInside: 'avoid',
        pageBreakInside: 'avoid',
        color: '#000',
        background: '#fff',
      }}
    >
      <Typography sx={{ fontWeight: 700, fontSize: 14 }}>{settings.newspaperName}</Typography>
      <QrPreview options={options} />
      <Typography sx={{ fontWeight: 700, fontSize: 16 }} className="badge-name">
        {`${vendor.firstName} ${vendor.lastName}`.trim()}
      </Typography>
      <Typography sx={{ fontSize: 13 }} className="badge-licence">
        {translate('app.qr.licence', { id: vendor.licenseId })}
      </Typography>
    </Box>
  );
}

/**
 * The badge sheet, to print on A4: each code with name, licence ID and newspaper, for every active
 * vendor, or for the vendors chosen in the vendor list (`?ids=1,2,3`).
 */
export function BadgeSheet() {
  const translate = useTranslate();
  const dataProvider = useDataProvider();
  const [vendors, setVendors] = useState<BadgeVendor[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const ids = useSearchParams()[0].get('ids') ?? '';

  useEffect(() => {
    const chosen = ids.split(',').filter(Boolean);
    (chosen.length ? chosenVendors(dataProvider, chosen) : activeVendors(dataProvider)).then(
      setVendors,
      (error: Error) => setFailure(error.message),
    );
  }, [dataProvider, ids]);

  return (
    <Box
      sx={{ p: { xs: 1, sm: 2 }, maxWidth: '190mm', mx: 'auto', background: '#fff', minHeight: '100vh' }}
      id="badge-sheet"
    >
      {printStyles}
      <Box
        className="badge-sheet-toolbar"
        sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 2 }}
      >
        <Typography variant="h6" component="h1" sx={{ flex: '1 1 auto' }}>
          <PageTitle page="app.page.badges" />
        </Typography>
        <Button component={Link} to={qrPaths.settings} variant="outlined">
          {translate('app.qr.back')}
        </Button>
        <Button variant="contained" onClick={() => window.print()} disabled={!vendors?.length} id="badge-sheet-print">
          {translate('app.qr.print')}
        </Button>
        {vendors && (
          <Typography variant="body2" color="text.secondary" sx={{ flexBasis: '100%' }}>
            {translate('app.qr.badges_hint', { smart_count: vendors.length })}
          </Typography>
        )}
      </Box>
      {failure && <Alert severity="error">{failure}</Alert>}
      {!vendors && !failure && <CircularProgress aria-label={translate('ra.page.loading')} />}
      {vendors?.length === 0 && <Alert severity="info">{translate('app.qr.no_vendors')}</Alert>}
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(3, 1fr)' },
          gap: '4mm',
          '@media print': { gridTemplateColumns: 'repeat(3, 1fr)' },
        }}
      >
        {vendors?.map((vendor) => (
          <Badge key={vendor.id} vendor={vendor} />
        ))}
      </Box>
    </Box>
  );
}
