import PrintIcon from '@mui/icons-material/Print';
import ReceiptIcon from '@mui/icons-material/Receipt';
import { Alert, Box, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { Button, useDataProvider, useLocale, useTranslate } from 'react-admin';
import type { ShopDataProvider } from '../dataProvider.ts';

/**
 * The payout's printable receipt (HTML of GET /api/payouts/{id}/receipt, fetched with the login)
 * in a frame, with a button that prints just the receipt.
 */
export function Receipt({ payoutId }: { payoutId: number }) {
  const dataProvider = useDataProvider<ShopDataProvider>();
  const translate = useTranslate();
  const locale = useLocale();
  const frame = useRef<HTMLIFrameElement>(null);
  const [url, setUrl] = useState<string>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let objectUrl: string | undefined;
    let current = true;
    dataProvider.fileUrl(`/api/payouts/${payoutId}/receipt?lang=${locale}`).then(
      (loaded: string) => {
        objectUrl = loaded;
        if (current) setUrl(loaded);
        else URL.revokeObjectURL(loaded);
      },
      (failed: Error) => current && setError(failed.message),
    );
    return () => {
      current = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [dataProvider, payoutId, locale]);
  if (error) return <Alert severity="error">{error}</Alert>;
  return (
    <Box>
      <Button
        label="app.books.print"
        id="payout-receipt-print"
        disabled={!url}
        onClick={() => frame.current?.contentWindow?.print()}
        variant="contained"
        sx={{ mb: 1 }}
      >
        <PrintIcon />
      </Button>
      {url ? (
        <Box
          component="iframe"
          ref={frame}
          src={url}
          id="payout-receipt"
          title={translate('app.books.receipt')}
          sx={{ width: '100%', height: { xs: 520, md: 800 }, border: 1, borderColor: 'divider', bgcolor: 'white' }}
        />
      ) : (
        translate('ra.page.loading')
      )}
    </Box>
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
