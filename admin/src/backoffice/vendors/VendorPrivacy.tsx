import DownloadIcon from '@mui/icons-material/Download';
import PersonOffIcon from '@mui/icons-material/PersonOff';
import { Button, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { Confirm, useDataProvider, useNotify, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { localDay } from '../../shared/dates.ts';
import type { ShopDataProvider } from '../dataProvider.ts';
import { useDownload } from '../common/download.ts';
import { useFormatMoney } from '../common/money.tsx';
import { vendorPaths } from './paths.ts';
import type { VendorRecord } from './record.ts';

/**
 * The vendor's rights over their data: a copy of everything stored (a ZIP), and anonymisation, which
 * the API refuses while money is open; the button says so before anyone tries.
 */
export function VendorPrivacy({ vendor }: { vendor: VendorRecord }) {
  const translate = useTranslate();
  const formatMoney = useFormatMoney();
  const download = useDownload();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const notify = useNotify();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const credit = vendor.credit ?? 0;
  const day = localDay();

  const anonymise = async () => {
    setBusy(true);
    try {
      await dataProvider.call(`/api/vendors/${vendor.id}/anonymise`, { method: 'POST' });
      notify('app.vendor.privacy_anonymised', { type: 'success', messageArgs: { id: vendor.id } });
      void navigate(vendorPaths.list);
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };

  return (
    <Stack spacing={1.5}>
      <Typography variant="body2">{translate('app.vendor.privacy_export_hint')}</Typography>
      <div>
        <Button
          id="vendor-export"
          variant="outlined"
          startIcon={<DownloadIcon />}
          onClick={() =>
            void download(`/api/vendors/${vendor.id}/export`, `datenauskunft-${vendor.licenseId}-${day}.zip`)
          }
        >
          {translate('app.vendor.privacy_export')}
        </Button>
      </div>
      <Typography variant="body2" id="vendor-anonymise-hint">
        {credit === 0
          ? translate('app.vendor.privacy_anonymise_hint')
          : translate('app.vendor.privacy_anonymise_blocked', { credit: formatMoney(credit) })}
      </Typography>
      <div>
        <Button
          id="vendor-anonymise"
          variant="outlined"
          color="error"
          startIcon={<PersonOffIcon />}
          disabled={credit !== 0 || busy}
          aria-describedby="vendor-anonymise-hint"
          onClick={() => setConfirming(true)}
        >
          {translate('app.vendor.privacy_anonymise')}
        </Button>
      </div>
      <Confirm
        isOpen={confirming}
        loading={busy}
        title={translate('app.vendor.privacy_anonymise_title', {
          name: `${vendor.licenseId} · ${vendor.firstName} ${vendor.lastName}`.trim(),
        })}
        content={translate('app.vendor.privacy_anonymise_content', { id: vendor.id })}
        confirm="app.vendor.privacy_anonymise"
        confirmColor="warning"
        onConfirm={() => void anonymise()}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}
