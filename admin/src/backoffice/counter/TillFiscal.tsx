import DownloadIcon from '@mui/icons-material/Download';
import SaveIcon from '@mui/icons-material/Save';
import { Alert, Box, CircularProgress, Link as MuiLink, MenuItem, TextField, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Button, Confirm, useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { formatDateTime } from '../../shared/dates.ts';
import type { Locale } from '../../shared/locale.ts';
import { offerUrl } from '../../shared/save-file.ts';
import { DayInput } from '../common/DayInput.tsx';
import type { ShopDataProvider } from '../dataProvider.ts';
import { counterPaths } from './paths.ts';

// A till's signing (api/src/fiscal, docs/fiscal.md) as staff set it: its mode and country or the
// installation's, what applies now and since when. Switching is a legal act (signing begins with the
// opening balance, switching off stops it for good), so it is confirmed first; switching a signing till
// off takes its TSE out of service, which the office must report, so it asks for the reason too.

type Mode = 'off' | 'test' | 'live';
type Country = 'DE' | 'AT';

export interface FiscalTill {
  tillId: number;
  name: string;
  mode: Mode | null;
  country: Country | null;
  effectiveMode: Mode;
  effectiveCountry: Country;
  simulator: boolean;
  signingSince: string | null;
  tssSerial: string | null;
  clientSerial: string | null;
  lastSignedAt: string | null;
  /** Austria: the Kassen-ID and the AES key's check value (Prüfwert) FinanzOnline asks at registration. */
  rksv: { cashRegisterId: string; aesKeyCheckValue: string | null; unitFailedSince: string | null } | null;
  /** When and why its signing was ended, newest first. */
  decommissions: {
    at: string;
    reason: string;
    country: Country;
    tssSerial: string | null;
    clientSerial: string | null;
    by: string | null;
  }[];
}

export interface FiscalOverview {
  mode: Mode;
  country: Country;
  simulator: boolean;
  tills: FiscalTill[];
  installation: { name: string; address: string; software: { name: string; version: string } };
}

export function useFiscalOverview() {
  const dataProvider = useDataProvider<ShopDataProvider>();
  return useQuery({
    queryKey: ['fiscal', 'overview'],
    queryFn: () => dataProvider.call('/api/fiscal') as Promise<FiscalOverview>,
  });
}

/**
 * Whether the signing state is on its first try still. A screen where it draws above buttons waits
 * that long before drawing them, so that none moves from under a pointer about to click it; a signing
 * state that fails to load holds the screen up no longer than that.
 */
export function onFirstTry(fiscal: { isPending: boolean; failureCount: number }): boolean {
  return fiscal.isPending && fiscal.failureCount === 0;
}

/** "Testmodus · Deutschland (TSE) · lokaler TSE-Simulator …": what applies to a till now. */
function useApplies() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (till: FiscalTill) =>
    till.effectiveMode === 'off'
      ? translate('app.fiscal.off_plain')
      : [
          translate(`app.fiscal.mode_${till.effectiveMode}`),
          translate(`app.fiscal.country_${till.effectiveCountry}`),
          till.simulator
            ? translate(till.effectiveCountry === 'AT' ? 'app.fiscal.simulator_AT' : 'app.fiscal.simulator')
            : '',
          till.signingSince
            ? translate('app.fiscal.since', { time: formatDateTime(till.signingSince, locale as Locale) })
            : translate('app.fiscal.not_yet'),
        ]
          .filter(Boolean)
          .join(' · ');
}

const follow = 'follow';

/** The signing of one till, on the tills screen. */
export function TillFiscal({ tillId, tillName }: { tillId: number; tillName: string }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const queryClient = useQueryClient();
  const applies = useApplies();
  const { data } = useFiscalOverview();
  const till = data?.tills.find((t) => t.tillId === tillId);
  const [choice, setChoice] = useState<{ mode: string; country: string }>();
  const [confirming, setConfirming] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonMissing, setReasonMissing] = useState(false);
  const [locale] = useLocaleState();
  const reasonInput = useRef<HTMLTextAreaElement>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string }>();
  if (!data || !till) return null;
  const mode = choice?.mode ?? till.mode ?? follow;
  const country = choice?.country ?? till.country ?? follow;
  const changed = mode !== (till.mode ?? follow) || country !== (till.country ?? follow);
  const nextMode = (mode === follow ? data.mode : mode) as Mode;
  const nextCountry = (country === follow ? data.country : country) as Country;
  const modeText = translate(`app.fiscal.mode_${nextMode}`);
  const decommissioning = nextMode === 'off' && till.effectiveMode !== 'off';
  const ended = till.decommissions?.[0];
  const consequence =
    nextMode === 'off'
      ? till.effectiveMode === 'off'
        ? undefined
        : translate('app.fiscal.confirm_off')
      : till.effectiveMode === 'off'
        ? translate('app.fiscal.confirm_on', { mode: modeText })
        : nextMode !== till.effectiveMode || nextCountry !== till.effectiveCountry
          ? translate('app.fiscal.confirm_restart', { mode: modeText })
          : undefined;

  const save = async () => {
    if (decommissioning && !reason.trim()) {
      setReasonMissing(true);
      reasonInput.current?.focus();
      return;
    }
    setConfirming(false);
    setBusy(true);
    setMessage(undefined);
    try {
      await dataProvider.call(`/api/tills/${tillId}/fiscal`, {
        method: 'PUT',
        body: {
          mode: mode === follow ? null : mode,
          country: country === follow ? null : country,
          ...(decommissioning ? { reason: reason.trim() } : {}),
        },
      });
      setChoice(undefined);
      setReason('');
      setMessage({ ok: true, text: translate('app.fiscal.saved', { mode: modeText }) });
      await queryClient.invalidateQueries({ queryKey: ['fiscal'] });
    } catch (failed) {
      setMessage({ ok: false, text: (failed as Error).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box component="section" aria-labelledby="till-fiscal-heading" id="till-fiscal" sx={{ mb: 3 }}>
      <Typography variant="h6" component="h2" id="till-fiscal-heading">
        {translate('app.fiscal.heading')}
      </Typography>
      <Typography id="till-fiscal-now" sx={{ my: 1 }}>
        <strong>{translate('app.fiscal.now')}:</strong> {applies(till)}
      </Typography>
      {till.rksv && (
        <Typography id="till-fiscal-rksv" sx={{ my: 1 }}>
          {till.rksv.aesKeyCheckValue
            ? translate('app.fiscal.rksv', { id: till.rksv.cashRegisterId, check: till.rksv.aesKeyCheckValue })
            : translate('app.fiscal.rksv_no_key', { id: till.rksv.cashRegisterId })}
        </Typography>
      )}
      {till.rksv?.unitFailedSince && (
        <Alert severity="warning" id="till-fiscal-unit-failed" sx={{ my: 1 }}>
          {translate('app.fiscal.rksv_unit_failed', {
            time: formatDateTime(till.rksv.unitFailedSince, locale as Locale),
          })}
        </Alert>
      )}
      {ended && till.effectiveMode === 'off' && (
        <Alert
          severity="warning"
          id="till-fiscal-decommissioned"
          // The TSE's serial is 64 characters without a break: it wraps instead of scrolling on a phone.
          sx={{ my: 1, '& .MuiAlert-message': { overflowWrap: 'anywhere' } }}
        >
          {translate('app.fiscal.decommissioned', {
            time: formatDateTime(ended.at, locale as Locale),
            by: ended.by ?? '–',
            serial: ended.tssSerial ?? '–',
            reason: ended.reason,
          })}
        </Alert>
      )}
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
        <TextField
          select
          size="small"
          label={translate('app.fiscal.mode')}
          value={mode}
          onChange={(event) => setChoice({ mode: event.target.value, country })}
          slotProps={{ select: { id: 'till-fiscal-mode' } }}
          sx={{ minWidth: 240 }}
        >
          <MenuItem value={follow}>
            {translate('app.fiscal.follow', { value: translate(`app.fiscal.mode_${data.mode}`) })}
          </MenuItem>
          {(['off', 'test', 'live'] as const).map((m) => (
            <MenuItem key={m} value={m}>
              {translate(`app.fiscal.mode_${m}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={translate('app.fiscal.country')}
          value={country}
          onChange={(event) => setChoice({ mode, country: event.target.value })}
          slotProps={{ select: { id: 'till-fiscal-country' } }}
          sx={{ minWidth: 240 }}
        >
          <MenuItem value={follow}>
            {translate('app.fiscal.follow', { value: translate(`app.fiscal.country_${data.country}`) })}
          </MenuItem>
          {(['DE', 'AT'] as const).map((c) => (
            <MenuItem key={c} value={c}>
              {translate(`app.fiscal.country_${c}`)}
            </MenuItem>
          ))}
        </TextField>
        <Button
          label="app.fiscal.apply"
          id="till-fiscal-apply"
          // react-admin names a disabled icon-only button (phones) by nothing but this
          aria-label={translate('app.fiscal.apply')}
          variant="contained"
          disabled={!changed || busy}
          onClick={() => (consequence ? setConfirming(true) : void save())}
        >
          <SaveIcon />
        </Button>
      </Box>
      {message && (
        <Alert severity={message.ok ? 'success' : 'error'} id="till-fiscal-message" role="alert" sx={{ mt: 1 }}>
          {message.text}
        </Alert>
      )}
      <MuiLink
        component={Link}
        to={counterPaths.elster}
        id="till-fiscal-elster"
        sx={{ display: 'inline-block', mt: 1 }}
      >
        {translate('app.fiscal.elster_link')}
      </MuiLink>
      <Confirm
        isOpen={confirming}
        title={translate('app.fiscal.confirm_title', { till: tillName })}
        content={
          <>
            <Typography id="till-fiscal-confirm">{consequence}</Typography>
            {decommissioning && (
              <>
                <Typography id="till-fiscal-confirm-report" sx={{ mt: 1 }}>
                  {translate('app.fiscal.confirm_off_report')}
                </Typography>
                <TextField
                  id="till-fiscal-reason"
                  label={translate('app.fiscal.reason')}
                  value={reason}
                  onChange={(event) => {
                    setReason(event.target.value);
                    setReasonMissing(false);
                  }}
                  required
                  inputRef={reasonInput}
                  fullWidth
                  multiline
                  minRows={2}
                  error={reasonMissing}
                  helperText={translate(reasonMissing ? 'app.fiscal.reason_missing' : 'app.fiscal.reason_hint')}
                  slotProps={{ htmlInput: { maxLength: 500 } }}
                  sx={{ mt: 2 }}
                />
              </>
            )}
          </>
        }
        confirm="app.fiscal.confirm"
        // The confirm button takes the focus as the dialog opens; the reason it needs comes first.
        slotProps={{ transition: { onEntered: () => reasonInput.current?.focus() } }}
        onConfirm={() => void save()}
        onClose={() => {
          setConfirming(false);
          setReasonMissing(false);
        }}
      />
    </Box>
  );
}

/** On the counter: a till that signs nothing says so plainly, with the way to switch it. */
export function FiscalOffNotice({ tillId }: { tillId: number | undefined }) {
  const translate = useTranslate();
  const { data } = useFiscalOverview();
  const till = data?.tills.find((t) => t.tillId === tillId);
  if (!till || till.effectiveMode !== 'off') return null;
  return (
    <Alert severity="info" id="counter-fiscal-off" sx={{ my: 1 }}>
      {translate('app.fiscal.counter_off')}{' '}
      <MuiLink component={Link} to={counterPaths.tills}>
        {translate('app.fiscal.counter_off_link')}
      </MuiLink>
    </Alert>
  );
}

/** The DSFinV-K export of a period (docs/fiscal.md), this month by default, as the ZIP the API makes. */
export function FiscalExport({ today }: { today: string }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const [from, setFrom] = useState(`${today.slice(0, 8)}01`);
  const [to, setTo] = useState(today);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const download = async () => {
    setBusy(true);
    setProblem(undefined);
    try {
      const url = await dataProvider.fileUrl(`/api/tills/dsfinvk?from=${from}&to=${to}`);
      offerUrl(url, `dsfinvk-${from}-${to}.zip`);
    } catch (failed) {
      setProblem(translate('app.fiscal.export_failed', { message: (failed as Error).message }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box component="section" aria-labelledby="fiscal-export-heading" id="fiscal-export" sx={{ mb: 3 }}>
      <Typography variant="h6" component="h2" id="fiscal-export-heading">
        {translate('app.fiscal.export_heading')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        {translate('app.fiscal.export_hint')}
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
        <DayInput id="fiscal-export-from" label={translate('app.fiscal.from')} value={from} onChange={setFrom} />
        <DayInput id="fiscal-export-to" label={translate('app.fiscal.to')} value={to} onChange={setTo} />
        <Button
          label="app.fiscal.export_download"
          id="fiscal-export-download"
          aria-label={translate('app.fiscal.export_download')}
          disabled={busy || !from || !to}
          onClick={() => void download()}
        >
          {busy ? <CircularProgress size={16} aria-hidden /> : <DownloadIcon />}
        </Button>
      </Box>
      <Box aria-live="polite">
        {busy && (
          <Typography id="fiscal-export-loading" sx={{ mt: 1 }}>
            {translate('app.fiscal.export_loading')}
          </Typography>
        )}
      </Box>
      {problem && (
        <Alert severity="error" id="fiscal-export-problem" role="alert" sx={{ mt: 1 }}>
          {problem}
        </Alert>
      )}
    </Box>
  );
}
