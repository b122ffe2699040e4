import ReceiptIcon from '@mui/icons-material/Receipt';
import { Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { useState } from 'react';
import { Button, useTranslate } from 'react-admin';
import { PrintFrame } from '../common/PrintFrame.tsx';

/**
 * The payout's printable receipt (HTML of GET /api/payouts/{id}/receipt, fetched with the login)
 * in a frame, with a button that prints just the receipt; with `reversal`, its reversal's own paper.
 */
export function Receipt({ payoutId, reversal = false }: { payoutId: number; reversal?: boolean }) {
  const translate = useTranslate();
  return (
    <PrintFrame
      path={reversal ? `/api/payouts/${payoutId}/reversal/receipt` : `/api/payouts/${payoutId}/receipt`}
      id={reversal ? 'payout-reversal-receipt' : 'payout-receipt'}
      title={translate(reversal ? 'app.books.reversal_receipt' : 'app.books.receipt')}
      printLabel="app.books.print"
    />
  );
}

/**
 * The payouts list's receipt link: the receipt in a dialog, to print again, named by its voucher;
 * with `reversal`, the reversal's paper under the reversal's own voucher.
 */
export function ReceiptButton({
  payoutId,
  voucher,
  reversal = false,
}: {
  payoutId: number;
  voucher: string;
  reversal?: boolean;
}) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        label={reversal ? 'app.books.reversal_receipt' : 'app.books.receipt'}
        onClick={() => setOpen(true)}
        className={reversal ? 'payout-reversal-receipt-open' : 'payout-receipt-open'}
      >
        <ReceiptIcon />
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="md">
        <DialogTitle>
          {translate(reversal ? 'app.books.reversal_receipt_title' : 'app.books.receipt_title', { receipt: voucher })}
        </DialogTitle>
        <DialogContent>{open && <Receipt payoutId={payoutId} reversal={reversal} />}</DialogContent>
        <DialogActions>
          <Button label="ra.action.close" onClick={() => setOpen(false)} />
        </DialogActions>
      </Dialog>
    </>
  );
}
