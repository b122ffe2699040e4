import DownloadIcon from '@mui/icons-material/Download';
import { Button } from '@mui/material';
import { useDataProvider, useLocale, useNotify, useTranslate } from 'react-admin';
import type { ShopDataProvider } from '../dataProvider.ts';
import { query, type Days } from './types.ts';

/** The reconciliation as CSV, in the back office's language. */
export function CsvDownload({ days }: { days: Days }) {
  const translate = useTranslate();
  const locale = useLocale();
  const notify = useNotify();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const download = async () => {
    try {
      const url = await dataProvider.fileUrl(`/api/stripe-reconciliation.csv?${query(days)}&lang=${locale}`);
      const link = Object.assign(document.createElement('a'), {
        href: url,
        download: `stripe-abgleich_${days.from}_${days.to}.csv`,
      });
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    }
  };
  return (
    <Button startIcon={<DownloadIcon />} onClick={() => void download()} id="reconciliation-csv">
      {translate('app.reconciliation.csv')}
    </Button>
  );
}
