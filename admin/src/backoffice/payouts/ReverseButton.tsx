import UndoIcon from '@mui/icons-material/Undo';
import { Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { Button, useDataProvider, useNotify, useRefresh, useTranslate } from 'react-admin';
import { useFormatMoney } from '../common/money.tsx';
import type { ShopDataProvider } from '../dataProvider.ts';
import { useVendorLabel, type NamedVendor } from '../common/vendorLabel.ts';

export interface PayoutRecord {
  id: number;
  voucher: string;
  vendor: NamedVendor;
  amount: number;
  reversed: boolean;
}

/** Reverses a payout after a confirmation that names it and asks for the reason (the API requires one). */
export function ReverseButton({ payout }: { payout: PayoutRecord }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const formatMoney = useFormatMoney();
  const vendorLabel = useVendorLabel();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const close = () => {
    setOpen(false);
    setReason('');
    setError(undefined);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) return setError(translate('app.books.reason_required'));
    setBusy(true);
    try {
      await dataProvider.call(`/api/payments/payout/${payout.id}/reverse`, {
        method: 'POST',
        body: { reason: reason.trim() },
      });
      close();
      notify('app.books.reversed_done', { type: 'success' });
      refresh();
    } catch (failed) {
      setError((failed as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button label="app.books.reverse" onClick={() => setOpen(true)} className="payout-reverse" color="error">
        <UndoIcon />
      </Button>
      <Dialog open={open} onClose={close} aria-labelledby={`reverse-title-${payout.id}`}>
        <form onSubmit={(event) => void submit(event)} noValidate>
          <DialogTitle id={`reverse-title-${payout.id}`}>
            {translate('app.books.reverse_title', { receipt: payout.voucher })}
          </DialogTitle>
          <DialogContent>
            <DialogContentText sx={{ mb: 2 }}>
              {translate('app.books.reverse_content', {
                amount: formatMoney(payout.amount),
                vendor: vendorLabel(payout.vendor),
              })}
            </DialogContentText>
            <TextField
              autoFocus
              fullWidth
              required
              label={translate('app.books.reason')}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              error={!!error}
              helperText={error}
              slotProps={{ htmlInput: { maxLength: 500 } }}
            />
          </DialogContent>
          <DialogActions>
            <Button label="ra.action.cancel" onClick={close} />
            <Button
              label="app.books.reverse"
              type="submit"
              color="error"
              variant="contained"
              disabled={busy}
              id="payout-reverse-confirm"
            />
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
