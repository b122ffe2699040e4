import DownloadIcon from '@mui/icons-material/Download';
import { Alert, Box, CircularProgress, Typography } from '@mui/material';
import { useState } from 'react';
import { Button, useDataProvider, useTranslate } from 'react-admin';
import { offerUrl } from '../../shared/save-file.ts';
import { DayInput } from '../common/DayInput.tsx';
import type { ShopDataProvider } from '../dataProvider.ts';
import { useFiscalOverview } from './TillFiscal.tsx';

/**
 * An Austrian till's DEP (RKSV §7, docs/fiscal.md#the-dep-export) of a period, this month by
 * default: one cash register, one Kassen-ID per file, as the BMF's check reads it.
 */
export function Dep7Export({ tillId, today }: { tillId: number; today: string }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const { data } = useFiscalOverview();
  const [from, setFrom] = useState(`${today.slice(0, 8)}01`);
  const [to, setTo] = useState(today);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const till = data?.tills.find((t) => t.tillId === tillId);
  if (!till?.rksv) return null;
  const download = async () => {
    setBusy(true);
    setProblem(undefined);
    try {
      const url = await dataProvider.fileUrl(`/api/tills/dep7?from=${from}&to=${to}&till=${tillId}`);
      offerUrl(url, `dep7-${tillId}-${from}-${to}.json`);
    } catch (failed) {
      setProblem(translate('app.fiscal.export_failed', { message: (failed as Error).message }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box component="section" aria-labelledby={`dep7-heading-${tillId}`} id={`dep7-${tillId}`} sx={{ mb: 3 }}>
      <Typography variant="h6" component="h2" id={`dep7-heading-${tillId}`}>
        {translate('app.fiscal.dep7_heading')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        {translate('app.fiscal.dep7_hint', { id: till.rksv.cashRegisterId })}
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
        <DayInput id={`dep7-from-${tillId}`} label={translate('app.fiscal.from')} value={from} onChange={setFrom} />
        <DayInput id={`dep7-to-${tillId}`} label={translate('app.fiscal.to')} value={to} onChange={setTo} />
        <Button
          label="app.fiscal.dep7_download"
          id={`dep7-download-${tillId}`}
          aria-label={translate('app.fiscal.dep7_download')}
          disabled={busy || !from || !to}
          onClick={() => void download()}
        >
          {busy ? <CircularProgress size={16} aria-hidden /> : <DownloadIcon />}
        </Button>
      </Box>
      {problem && (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {problem}
        </Alert>
      )}
    </Box>
  );
}
