import DownloadIcon from '@mui/icons-material/Download';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import { Box, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Tab, Tabs, TextField } from '@mui/material';
import { useState } from 'react';
import { Button, useTranslate } from 'react-admin';
import { localDay } from '../../shared/dates.ts';
import { PrintFrame } from '../common/PrintFrame.tsx';
import { BenefitView } from './BenefitStatement.tsx';
import { useDownload } from '../common/download.ts';
import { PeriodPicker, type PeriodChoice } from '../statistics/PeriodPicker.tsx';
import { presetDays } from '../statistics/period.ts';

/** '' is the vendor's own language (the API reads it from their record). */
type Language = '' | 'de' | 'en';

/** The period and language pickers of a statement, and the statement under them, printable. */
function StatementView({ vendorId, licenseId }: { vendorId: number; licenseId: string }) {
  const translate = useTranslate();
  const download = useDownload();
  const [period, setPeriod] = useState<PeriodChoice>(() => ({ preset: 'last_month', ...presetDays('last_month') }));
  const [language, setLanguage] = useState<Language>('');
  const complete = Boolean(period.from && period.to && period.from <= period.to);
  const query = `from=${period.from}&to=${period.to}`;
  const path = `/api/vendors/${vendorId}/statement?${query}`;
  const lang = language ? `&lang=${language}` : '';
  return (
    <>
      <PeriodPicker value={period} onChange={setPeriod} />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', mb: 2 }}>
        <TextField
          select
          id="statement-language"
          label={translate('app.statements.language')}
          value={language}
          onChange={(event) => setLanguage(event.target.value as Language)}
          // '' is a choice of its own (the vendor's language), shown like the others
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          size="small"
          sx={{ minWidth: 220 }}
        >
          <MenuItem value="">{translate('app.statements.vendor_language')}</MenuItem>
          <MenuItem value="de">{translate('app.statements.german')}</MenuItem>
          <MenuItem value="en">{translate('app.statements.english')}</MenuItem>
        </TextField>
        <Button
          label="app.statements.csv"
          id="statement-csv"
          disabled={!complete}
          onClick={() =>
            void download(
              `${path}&format=csv${lang}`,
              `abrechnung_${licenseId}_${period.from}_${period.to}.csv`.replace(/[^A-Za-z0-9._-]/g, '_'),
            )
          }
        >
          <DownloadIcon />
        </Button>
      </Box>
      {complete && (
        <PrintFrame
          path={`${path}&format=html${lang}`}
          id="statement-page"
          title={translate('app.statements.page')}
          printLabel="app.statements.print"
          lang={null}
        />
      )}
    </>
  );
}

/** The vendor profile's "Statement" action: the statement of a period in a dialog, to print or download. */
export function StatementButton({ vendorId, licenseId, name }: { vendorId: number; licenseId: string; name: string }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const [view, setView] = useState<'statement' | 'benefit'>('statement');
  return (
    <>
      <Button label="app.statements.open" onClick={() => setOpen(true)} id="vendor-statement-button">
        <ReceiptLongIcon />
      </Button>
      {/* As tall as it may be from the start: a dialog that grew with each answer would move its
          controls from under the pointer of someone about to click them. */}
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        fullWidth
        maxWidth="md"
        aria-labelledby="statement-title"
        slotProps={{ paper: { sx: { height: 'calc(100% - 64px)' } } }}
      >
        <DialogTitle id="statement-title">{translate('app.statements.title', { vendor: name })}</DialogTitle>
        <DialogContent>
          <Tabs
            value={view}
            onChange={(_, next: 'statement' | 'benefit') => setView(next)}
            variant="scrollable"
            allowScrollButtonsMobile
            sx={{ mb: 1 }}
          >
            <Tab value="statement" label={translate('app.statements.tab_statement')} id="statement-tab-statement" />
            <Tab value="benefit" label={translate('app.statements.tab_benefit')} id="statement-tab-benefit" />
          </Tabs>
          {open && view === 'statement' && <StatementView vendorId={vendorId} licenseId={licenseId} />}
          {open && view === 'benefit' && <BenefitView vendorId={vendorId} />}
        </DialogContent>
        <DialogActions>
          <Button label="ra.action.close" onClick={() => setOpen(false)} id="statement-close" />
        </DialogActions>
      </Dialog>
    </>
  );
}

/** Every vendor's statements of a year in one printable document (opened from the vendor list). */
export function YearStatementsDialog({ onClose }: { onClose: () => void }) {
  const translate = useTranslate();
  const [year, setYear] = useState(String(Number(localDay().slice(0, 4)) - 1));
  const [shown, setShown] = useState<string>();
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="year-statements-title">
      <DialogTitle id="year-statements-title">{translate('app.statements.year_title')}</DialogTitle>
      <DialogContent>
        <Box
          component="form"
          sx={{ display: 'flex', gap: 2, alignItems: 'center', mb: 2, mt: 1 }}
          onSubmit={(event) => {
            event.preventDefault();
            setShown(year);
          }}
        >
          <TextField
            id="year-statements-year"
            label={translate('app.statements.year')}
            value={year}
            onChange={(event) => setYear(event.target.value.replace(/\D/g, '').slice(0, 4))}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            size="small"
          />
          <Button label="app.statements.show" type="submit" id="year-statements-show" disabled={year.length !== 4} />
        </Box>
        {shown && (
          <PrintFrame
            path={`/api/statements?year=${shown}&format=html`}
            id="year-statements-page"
            title={translate('app.statements.page')}
            printLabel="app.statements.print"
            lang={null}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button label="ra.action.close" onClick={onClose} id="year-statements-close" />
      </DialogActions>
    </Dialog>
  );
}
