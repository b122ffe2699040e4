import { Table, TableBody, TableCell, TableHead, TableRow, type Theme } from '@mui/material';
import type { SystemStyleObject } from '@mui/system';
import type { ReactNode } from 'react';
import { useLocale, useTranslate } from 'react-admin';
import { formatDateTime } from '../../shared/dates.ts';
import type { AccountRow } from '../../shared/ledger.ts';
import type { Locale } from '../../shared/locale.ts';
import { useFormatMoney } from './money.tsx';
import { ScrollRegion } from './ScrollRegion.tsx';

/**
 * Rows of a vendor's account, signed from the vendor's side; `children` are rows below them (a total).
 * They scroll in a region of their own (`sx` sets its size, a maxHeight say).
 */
export function TransactionTable({
  id,
  rows,
  sx,
  children,
}: {
  id: string;
  rows: AccountRow[];
  sx?: SystemStyleObject<Theme>;
  children?: ReactNode;
}) {
  const translate = useTranslate();
  const formatMoney = useFormatMoney();
  const locale = useLocale() as Locale;
  return (
    <ScrollRegion label="app.vendor.transactions" sx={sx}>
      <Table size="small" id={id}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('app.vendor.transaction_date')}</TableCell>
            <TableCell>{translate('app.vendor.transaction_item')}</TableCell>
            <TableCell align="right">{translate('app.vendor.transaction_quantity')}</TableCell>
            <TableCell align="right">{translate('app.vendor.transaction_amount')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.id}>
              <TableCell>{formatDateTime(row.createdAt, locale)}</TableCell>
              <TableCell>{row.itemName ?? translate(`app.vendor.kind_${row.kind}`, { _: row.kind })}</TableCell>
              <TableCell align="right">{row.quantity ?? ''}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap', color: row.sign < 0 ? 'error.main' : undefined }}>
                {row.sign < 0 ? '−' : '+'} {formatMoney(row.amount)}
              </TableCell>
            </TableRow>
          ))}
          {children}
        </TableBody>
      </Table>
    </ScrollRegion>
  );
}
