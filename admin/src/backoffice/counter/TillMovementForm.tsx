import SaveIcon from '@mui/icons-material/Save';
import { Alert, Box, MenuItem, TextField, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, useDataProvider, useTranslate } from 'react-admin';
import type { ShopDataProvider } from '../dataProvider.ts';
import { AmountField, useAmount } from '../common/money.tsx';
import { AfterCloseNotice } from './CashDay.tsx';
import type { Till } from './CashDay.tsx';

const manualKinds = ['bank_deposit', 'bank_withdrawal', 'expense', 'income'] as const;

/** A movement booked by hand: money to or from the bank, an expense, other income. */
export function TillMovementForm({ till }: { till: Till }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<(typeof manualKinds)[number]>('bank_deposit');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [message, setMessage] = useState<{ ok: boolean; text: string }>();
  // One id per movement until it is booked: sent again after an answer that did not arrive, the API
  // answers the movement it booked instead of booking it twice.
  const [requestId, setRequestId] = useState(() => crypto.randomUUID());
  const minor = useAmount().parse(amount);
  const submit = async () => {
    try {
      const done = (await dataProvider.call(`/api/tills/${till.id}/movements`, {
        method: 'POST',
        body: { kind, amount: minor, reason, requestId },
      })) as { voucher: string };
      setRequestId(crypto.randomUUID());
      setMessage({ ok: true, text: translate('app.tills.booked', { voucher: done.voucher }) });
      setAmount('');
      setReason('');
      await queryClient.invalidateQueries({ queryKey: ['tills'] });
    } catch (failed) {
      setMessage({ ok: false, text: (failed as Error).message });
    }
  };
  return (
    <Box sx={{ mb: 3 }}>
      <Typography variant="h6" component="h2">
        {translate('app.tills.movement')}
      </Typography>
      <AfterCloseNotice till={till} id="till-movement-after-close" />
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', my: 1 }}>
        <TextField
          select
          size="small"
          label={translate('app.tills.kind')}
          value={kind}
          onChange={(e) => setKind(e.target.value as typeof kind)}
          slotProps={{ select: { id: 'till-movement-kind' } }}
        >
          {manualKinds.map((k) => (
            <MenuItem key={k} value={k}>
              {translate(`app.tills.kind_${k}`)}
            </MenuItem>
          ))}
        </TextField>
        <AmountField
          size="small"
          label={translate('app.tills.amount')}
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          id="till-movement-amount"
        />
        <TextField
          size="small"
          label={translate('app.tills.reason')}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          id="till-movement-reason"
        />
        <Button
          label="app.tills.book_movement"
          variant="contained"
          id="till-movement-book"
          disabled={!minor}
          aria-label={translate('app.tills.book_movement')}
          onClick={() => void submit()}
        >
          <SaveIcon />
        </Button>
      </Box>
      {message && (
        <Alert severity={message.ok ? 'success' : 'error'} id="till-movement-message">
          {message.text}
        </Alert>
      )}
    </Box>
  );
}
