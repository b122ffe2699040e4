import LockIcon from '@mui/icons-material/Lock';
import { Alert, Box, Checkbox, FormControlLabel, TextField, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Confirm, useDataProvider, useTranslate } from 'react-admin';
import type { ShopDataProvider } from '../dataProvider.ts';
import { AmountField, useAmount, useFormatMoney } from '../common/money.tsx';
import { PrintFrame } from '../common/PrintFrame.tsx';
import { OpenDays } from './CashDay.tsx';
import type { Till } from './CashDay.tsx';
import type { TillClose } from '../../../../api/src/counter/closes.ts';

/** The daily close: the cash counted (by pieces or as a total) against what the book expects. */
export function TillCloseForm({ till, today }: { till: Till; today: string }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const queryClient = useQueryClient();
  const formatMoney = useFormatMoney();
  const amount = useAmount();
  // The coins and notes of the newspaper's country, as the tills' answer names them.
  const pieceValues = till.denominations;
  const [byPieces, setByPieces] = useState(true);
  const [pieces, setPieces] = useState<Record<number, string>>({});
  const [countedText, setCountedText] = useState('');
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [report, setReport] = useState<number>();
  // One close per till and day: after it, the movements wait for the next day's close.
  if (till.closedToday && report === undefined)
    return (
      <Box sx={{ mb: 3 }}>
        <Alert severity="info" id="till-closed">
          {translate('app.tills.closed')}
        </Alert>
        {till.openDays.length > 0 && (
          <>
            <Typography sx={{ mt: 1 }}>{translate('app.tills.waiting')}</Typography>
            <OpenDays days={till.openDays} today={today} id="till-open-days" />
          </>
        )}
      </Box>
    );
  // What this close will count, on the form and again in its confirmation.
  const covers = (id: string) =>
    till.openDays.length > 0 ? (
      <>
        <Typography sx={{ mt: 1 }}>{translate('app.tills.covers')}</Typography>
        <OpenDays days={till.openDays} today={today} id={id} />
      </>
    ) : (
      <Typography sx={{ mt: 1 }}>{translate('app.tills.covers_nothing')}</Typography>
    );
  const counts = Object.fromEntries(
    pieceValues.map((value) => [value, Math.max(0, Math.floor(Number(pieces[value] || 0)))]),
  );
  const counted = byPieces
    ? pieceValues.reduce((sum, value) => sum + value * counts[value], 0)
    : amount.parse(countedText);
  const difference = counted === undefined ? 0 : counted - till.balance;
  const close = async () => {
    setProblem(undefined);
    try {
      const done = (await dataProvider.call(`/api/tills/${till.id}/closes`, {
        method: 'POST',
        body: {
          counted,
          expected: till.balance,
          reason,
          ...(byPieces ? { denominations: Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0)) } : {}),
        },
      })) as TillClose;
      setReport(done.id);
      await queryClient.invalidateQueries({ queryKey: ['tills'] });
    } catch (failed) {
      setProblem((failed as Error).message);
    } finally {
      setConfirming(false);
    }
  };
  if (report !== undefined) {
    return (
      <Box id="till-close-done">
        <Alert severity="success" sx={{ mb: 2 }}>
          {translate('app.tills.closed')}
        </Alert>
        <PrintFrame path={`/api/closes/${report}/report`} id="till-report" title={translate('app.tills.report')} />
      </Box>
    );
  }
  return (
    <Box sx={{ mb: 3 }}>
      <Typography variant="h6" component="h2">
        {translate('app.tills.close')}
      </Typography>
      {covers('till-open-days')}
      <Typography sx={{ my: 1 }}>
        {translate('app.tills.expected')}: <strong id="till-expected">{formatMoney(till.balance)}</strong>
      </Typography>
      <FormControlLabel
        control={<Checkbox checked={byPieces} onChange={(e) => setByPieces(e.target.checked)} id="till-by-pieces" />}
        label={translate('app.tills.by_pieces')}
      />
      {byPieces ? (
        <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(120px, 1fr))', gap: 1, my: 1 }}>
          {pieceValues.map((value) => (
            <TextField
              key={value}
              type="number"
              size="small"
              label={formatMoney(value)}
              value={pieces[value] ?? ''}
              onChange={(e) => setPieces({ ...pieces, [value]: e.target.value })}
              id={`till-piece-${value}`}
              slotProps={{ htmlInput: { min: 0, step: 1 } }}
            />
          ))}
        </Box>
      ) : (
        <AmountField
          size="small"
          label={translate('app.tills.counted')}
          value={countedText}
          onChange={(e) => setCountedText(e.target.value)}
          id="till-counted"
          sx={{ my: 1 }}
        />
      )}
      <Typography sx={{ my: 1 }}>
        {translate('app.tills.counted')}:{' '}
        <strong id="till-counted-sum">{counted === undefined ? '–' : formatMoney(counted)}</strong> ·{' '}
        {translate('app.tills.difference')}: <strong id="till-difference">{formatMoney(difference)}</strong>
      </Typography>
      {difference !== 0 && (
        <TextField
          size="small"
          fullWidth
          label={translate('app.tills.reason')}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          id="till-close-reason"
          sx={{ mb: 1 }}
        />
      )}
      {problem && (
        <Alert severity="error" sx={{ mb: 1 }} id="till-close-problem">
          {problem}
        </Alert>
      )}
      <Button
        label="app.tills.close_day"
        variant="contained"
        id="till-close"
        disabled={counted === undefined || (difference !== 0 && !reason.trim())}
        aria-label={translate('app.tills.close_day')}
        onClick={() => setConfirming(true)}
      >
        <LockIcon />
      </Button>
      <Confirm
        isOpen={confirming}
        title="app.tills.close_confirm_title"
        content={
          <Box id="till-close-confirm">
            <Typography>
              {translate('app.tills.close_confirm_content', {
                expected: formatMoney(till.balance),
                counted: formatMoney(counted ?? 0),
                difference: formatMoney(difference),
              })}
            </Typography>
            {covers('till-close-confirm-days')}
          </Box>
        }
        confirm="app.tills.close_day"
        onConfirm={() => void close()}
        onClose={() => setConfirming(false)}
      />
    </Box>
  );
}
