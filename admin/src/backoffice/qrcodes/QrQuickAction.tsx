import QrCodeIcon from '@mui/icons-material/QrCode2';
import { IconButton, Tooltip } from '@mui/material';
import { useState } from 'react';
import { useTranslate, type RaRecord } from 'react-admin';
import { VendorQrDialog } from './lazy.tsx';
import type { BadgeVendor } from './styling.ts';

/** The vendor list's "QR code" action: the code in a dialog (loaded on the first click) to download. */
export function QrQuickAction({ vendor }: { vendor: RaRecord }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const label = translate('app.qr.action');
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          size="small"
          aria-label={label}
          className="vendor-qr"
          onClick={(event) => {
            event.stopPropagation();
            setOpen(true);
          }}
        >
          <QrCodeIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      {/* The dialog sits in the row: clicks inside it must not open the vendor's profile. */}
      {open && (
        <span onClick={(event) => event.stopPropagation()}>
          <VendorQrDialog vendor={vendor as BadgeVendor} onClose={() => setOpen(false)} />
        </span>
      )}
    </>
  );
}
