import QrCodeIcon from '@mui/icons-material/QrCode2';
import { IconButton, Tooltip } from '@mui/material';
import { createContext, useContext, useState, type ReactNode } from 'react';
import { useTranslate, type RaRecord } from 'react-admin';
import { VendorQrDialog } from './lazy.tsx';
import type { BadgeVendor } from './styling.ts';

const OpenVendorQr = createContext<(vendor: BadgeVendor) => void>(() => undefined);

/**
 * The vendor list's QR dialog, held outside its rows: the list may draw a row anew at any time (a
 * refetch, a column change), and a dialog kept in the row's state closed with it, once in CI just
 * before its download.
 */
export function VendorQrDialogs({ children }: { children: ReactNode }) {
  const [vendor, setVendor] = useState<BadgeVendor | null>(null);
  return (
    <OpenVendorQr.Provider value={setVendor}>
      {children}
      {vendor && <VendorQrDialog vendor={vendor} onClose={() => setVendor(null)} />}
    </OpenVendorQr.Provider>
  );
}

/** The vendor list's "QR code" action: the code in a dialog (loaded on the first click) to download. */
export function QrQuickAction({ vendor }: { vendor: RaRecord }) {
  const translate = useTranslate();
  const open = useContext(OpenVendorQr);
  const label = translate('app.qr.action');
  return (
    <Tooltip title={label}>
      <IconButton
        size="small"
        aria-label={label}
        className="vendor-qr"
        onClick={(event) => {
          event.stopPropagation();
          open(vendor as BadgeVendor);
        }}
      >
        <QrCodeIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}
