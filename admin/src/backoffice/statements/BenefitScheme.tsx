import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import TuneIcon from '@mui/icons-material/Tune';
import {
  Alert,
  Box,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  MenuItem,
  TextField,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { Button, useDataProvider, useLocale, useNotify, useTranslate } from 'react-admin';
import type { Locale } from '../../shared/locale.ts';
import { amountToInput, parseAmount } from '../../shared/money.ts';
import { AmountField, useCurrency } from '../common/money.tsx';
import type { ShopDataProvider } from '../dataProvider.ts';

// The installation's benefit scheme, as the office keeps it up to date: start from a preset
// (Bürgergeld, Austrian Grundversorgung) and edit its band edges, percents, warning distance and
// tips limit. The API validates and stores it (GET/PUT /api/settings/benefit-scheme).

type Key = 'de-buergergeld' | 'at-grundversorgung' | 'custom' | 'none';

interface Scheme {
  scheme: Key;
  bands: { upTo: number; percent: number }[];
  warnPercent: number;
  tipsFreeUpTo: number | null;
}

/** What the form holds: amounts as typed. */
interface Draft {
  scheme: Key;
  bands: { upTo: string; percent: string }[];
  warnPercent: string;
  tipsFreeUpTo: string;
}

const keys: Key[] = ['de-buergergeld', 'at-grundversorgung', 'custom', 'none'];

function toDraft(scheme: Scheme, currency: string, locale: Locale): Draft {
  return {
    scheme: scheme.scheme,
    bands: scheme.bands.map((band) => ({
      upTo: amountToInput(band.upTo, currency, locale),
      percent: String(band.percent),
    })),
    warnPercent: String(scheme.warnPercent),
    tipsFreeUpTo: scheme.tipsFreeUpTo === null ? '' : amountToInput(scheme.tipsFreeUpTo, currency, locale),
  };
}

/** The draft as the API takes it; a number that cannot be read goes as NaN, which the API refuses by field. */
function fromDraft(draft: Draft, currency: string): Scheme {
  const minor = (text: string) => parseAmount(text, currency) ?? Number.NaN;
  return {
    scheme: draft.scheme,
    bands: draft.bands.map((band) => ({ upTo: minor(band.upTo), percent: Number(band.percent) })),
    warnPercent: Number(draft.warnPercent),
    tipsFreeUpTo: draft.tipsFreeUpTo.trim() === '' ? null : minor(draft.tipsFreeUpTo),
  };
}

export function BenefitSchemeButton({ onSaved }: { onSaved: () => void }) {
  const translate = useTranslate();
  const locale = useLocale() as Locale;
  const currency = useCurrency();
  const notify = useNotify();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const [open, setOpen] = useState(false);
  const [presets, setPresets] = useState<Record<Key, Scheme>>();
  const [draft, setDraft] = useState<Draft>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    if (!open) return;
    let current = true;
    void (dataProvider.call('/api/settings/benefit-scheme') as Promise<Scheme & { presets: Record<Key, Scheme> }>).then(
      ({ presets: loaded, ...scheme }) => {
        if (!current) return;
        setPresets(loaded);
        setDraft(toDraft(scheme, currency, locale));
      },
      (failed: Error) => current && setError(failed.message),
    );
    return () => {
      current = false;
    };
  }, [open, dataProvider, currency, locale]);

  const save = async () => {
    if (!draft) return;
    try {
      await dataProvider.call('/api/settings/benefit-scheme', { method: 'PUT', body: fromDraft(draft, currency) });
      notify('app.statements.scheme.saved', { type: 'success' });
      setOpen(false);
      onSaved();
    } catch (failed) {
      setError((failed as Error).message);
    }
  };
  const setBand = (index: number, field: 'upTo' | 'percent', value: string) =>
    draft &&
    setDraft({ ...draft, bands: draft.bands.map((band, i) => (i === index ? { ...band, [field]: value } : band)) });

  return (
    <>
      <Button label="app.statements.scheme.open" onClick={() => setOpen(true)} id="benefit-scheme-button">
        <TuneIcon />
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="sm" aria-labelledby="benefit-scheme-title">
        <DialogTitle id="benefit-scheme-title">{translate('app.statements.scheme.title')}</DialogTitle>
        <DialogContent>
          {error && (
            <Alert severity="error" sx={{ mb: 1 }}>
              {error}
            </Alert>
          )}
          {draft && presets && (
            <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, mt: 1 }}>
              <TextField
                select
                id="benefit-scheme-key"
                label={translate('app.statements.scheme.scheme')}
                value={draft.scheme}
                onChange={(event) => setDraft(toDraft(presets[event.target.value as Key], currency, locale))}
                size="small"
              >
                {keys.map((key) => (
                  <MenuItem key={key} value={key}>
                    {translate(`app.statements.scheme.${key}`)}
                  </MenuItem>
                ))}
              </TextField>
              {draft.bands.map((band, index) => (
                <Box key={index} sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
                  <AmountField
                    id={`benefit-band-${index}-upto`}
                    label={translate('app.statements.scheme.up_to', { n: index + 1 })}
                    value={band.upTo}
                    onChange={(event) => setBand(index, 'upTo', event.target.value)}
                    size="small"
                  />
                  <TextField
                    id={`benefit-band-${index}-percent`}
                    label={translate('app.statements.scheme.percent')}
                    value={band.percent}
                    onChange={(event) => setBand(index, 'percent', event.target.value)}
                    slotProps={{ htmlInput: { inputMode: 'numeric' } }}
                    size="small"
                    sx={{ width: 120 }}
                  />
                  <IconButton
                    aria-label={translate('app.statements.scheme.remove', { n: index + 1 })}
                    onClick={() => setDraft({ ...draft, bands: draft.bands.filter((_, i) => i !== index) })}
                  >
                    <DeleteIcon />
                  </IconButton>
                </Box>
              ))}
              <Box>
                <Button
                  label="app.statements.scheme.add"
                  id="benefit-band-add"
                  onClick={() => setDraft({ ...draft, bands: [...draft.bands, { upTo: '', percent: '0' }] })}
                >
                  <AddIcon />
                </Button>
              </Box>
              <TextField
                id="benefit-warn-percent"
                label={translate('app.statements.scheme.warn_percent')}
                value={draft.warnPercent}
                onChange={(event) => setDraft({ ...draft, warnPercent: event.target.value })}
                slotProps={{ htmlInput: { inputMode: 'numeric' } }}
                size="small"
              />
              <AmountField
                id="benefit-tips-free"
                label={translate('app.statements.scheme.tips_free')}
                helperText={translate('app.statements.scheme.tips_free_help')}
                value={draft.tipsFreeUpTo}
                onChange={(event) => setDraft({ ...draft, tipsFreeUpTo: event.target.value })}
                size="small"
              />
            </Box>
          )}
        </DialogContent>
        <DialogActions>
          <Button label="ra.action.cancel" onClick={() => setOpen(false)} id="benefit-scheme-cancel" />
          <Button label="ra.action.save" onClick={() => void save()} id="benefit-scheme-save" disabled={!draft} />
        </DialogActions>
      </Dialog>
    </>
  );
}
