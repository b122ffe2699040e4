import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import {
  Alert,
  Button as MuiButton,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  Stack,
} from '@mui/material';
import { useId, useState } from 'react';
import { Button, useGetOne, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { DayInput } from '../common/DayInput.tsx';
import { useDownload } from '../common/download.ts';
import { datevSettingsPath, trialBalancePath } from './paths.ts';
import { presetPeriod } from './period.ts';

type Mode = 'rows' | 'daily';

/**
 * The DATEV export of a period: the list's period (last month when it has none), one line per booking
 * or per day and kind, downloaded as EXTF_Buchungsstapel_<from>_<to>.csv.
 */
export function DatevExport({ period }: { period: { from?: string; to?: string } }) {
  const translate = useTranslate();
  const download = useDownload();
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [mode, setMode] = useState<Mode>('rows');
  const titleId = useId();
  const { data: settings } = useGetOne<{ id: number; adviserNumber: string; clientNumber: string }>(
    'datevsettings',
    { id: 1 },
    { enabled: open },
  );
  const ready = Boolean(settings?.adviserNumber && settings.clientNumber);
  const show = () => {
    const fallback = presetPeriod('last_month');
    setFrom(period.from || fallback.from);
    setTo(period.to || fallback.to);
    setOpen(true);
  };
  return (
    <>
      <Button label="app.datev.export" id="books-datev" onClick={show}>
        <ReceiptLongIcon />
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby={titleId} id="datev-dialog">
        <DialogTitle id={titleId}>{translate('app.datev.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {settings && !ready && <Alert severity="warning">{translate('app.datev.not_ready')}</Alert>}
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <DayInput id="datev-from" label={translate('app.datev.from')} value={from} onChange={setFrom} />
              <DayInput id="datev-to" label={translate('app.datev.to')} value={to} onChange={setTo} />
            </Stack>
            <FormControl>
              <FormLabel id={`${titleId}-mode`}>{translate('app.datev.mode')}</FormLabel>
              <RadioGroup
                aria-labelledby={`${titleId}-mode`}
                value={mode}
                onChange={(event) => setMode(event.target.value as Mode)}
              >
                <FormControlLabel value="rows" control={<Radio />} label={translate('app.datev.mode_rows')} />
                <FormControlLabel value="daily" control={<Radio />} label={translate('app.datev.mode_daily')} />
              </RadioGroup>
            </FormControl>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: 'start' }}>
              <MuiButton
                component={Link}
                to={datevSettingsPath}
                onClick={() => setOpen(false)}
                id="datev-settings-link"
              >
                {translate('app.datev.open_settings')}
              </MuiButton>
              {/* Before the file goes to the adviser: its accounts beside the cash book, Stripe and the credits. */}
              <MuiButton
                component={Link}
                to={`${trialBalancePath}?${new URLSearchParams({ from, to }).toString()}`}
                onClick={() => setOpen(false)}
                disabled={!from || !to}
                id="datev-trial-balance-link"
              >
                {translate('app.datev.open_trial_balance')}
              </MuiButton>
            </Stack>
          </Stack>
        </DialogContent>
        {/* Three buttons, the journal's label long in German: on a phone they take a second line. */}
        <DialogActions sx={{ flexWrap: 'wrap', rowGap: 1 }}>
          <MuiButton onClick={() => setOpen(false)}>{translate('ra.action.cancel')}</MuiButton>
          {/* The double-entry journal needs no DATEV numbers: every installation, every country. */}
          <MuiButton
            id="journal-download"
            disabled={!from || !to}
            onClick={() => {
              const query = new URLSearchParams({ from, to });
              void download(`/api/accounting/journal?${query.toString()}`, `journal_${from}_${to}.csv`);
              setOpen(false);
            }}
          >
            {translate('app.datev.journal')}
          </MuiButton>
          <MuiButton
            variant="contained"
            id="datev-download"
            disabled={!ready || !from || !to}
            onClick={() => {
              const query = new URLSearchParams({ from, to, mode });
              void download(`/api/accounting/datev?${query.toString()}`, `EXTF_Buchungsstapel_${from}_${to}.csv`);
              setOpen(false);
            }}
          >
            {translate('app.datev.download')}
          </MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}
