import ReceiptIcon from '@mui/icons-material/Receipt';
import { Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { useState } from 'react';
import { Button, useTranslate } from 'react-admin';
import { PrintFrame } from '../common/PrintFrame.tsx';

/**
 * The payout's printable receipt (HTML of GET /api/payouts/{id}/receipt, fetched with the login)
 * in a frame, with a button that prints just the receipt.
 */
export function Receipt({ payoutId }: { payoutId: number }) {
  const translate = useTranslate();
  return (
    <PrintFrame
      path={`/api/payouts/${payoutId}/receipt`}
      id="payout-receipt"
      title={translate('app.books.receipt')}
      printLabel="app.books.print"
    />
  );
}

/** The payouts list's receipt link: the receipt in a dialog, to print again. */
export function ReceiptButton({ payoutId, receiptNumber }: { payoutId: number; receiptNumber: string }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button label="app.books.receipt" onClick={() => setOpen(true)} className="payout-receipt-open">
        <ReceiptIcon />
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="md">
        <DialogTitle>{translate('app.books.receipt_title', { receipt: receiptNumber })}</DialogTitle>
        <DialogContent>{open && <Receipt payoutId={payoutId} />}</DialogContent>
        <DialogActions>
          <Button label="ra.action.close" onClick={() => setOpen(false)} />
        </DialogActions>
      </Dialog>
    </>
  );
}
