import { Box, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useFormatMoney } from '../common/money.tsx';
import { figures, type Figure, type Reconciliation } from './types.ts';

/** Stripe's figures and the books' side by side, with what differs; the sum last. */
export function FiguresTable({ reconciliation }: { reconciliation: Reconciliation }) {
  const translate = useTranslate();
  const formatMoney = useFormatMoney();
  const { stripe, books } = reconciliation;
  // A figure that is nothing on both sides says nothing: shown only when something moved.
  const shown = figures.filter((figure) => stripe[figure] !== 0 || books[figure] !== 0);
  const row = (figure: Figure | 'total') => {
    const total = figure === 'total';
    // Amounts stay on one line; on a phone the cells come closer together instead.
    const weight = { whiteSpace: 'nowrap', px: { xs: 1, sm: 2 }, ...(total ? { fontWeight: 700 } : {}) };
    const difference = stripe[figure] - books[figure];
    return (
      <TableRow key={figure} id={`reconciliation-figure-${figure}`}>
        <TableCell component="th" scope="row" sx={{ ...weight, whiteSpace: 'normal' }}>
          {translate(`app.reconciliation.figure_${figure}`)}
        </TableCell>
        <TableCell align="right" sx={weight}>
          {formatMoney(stripe[figure])}
        </TableCell>
        <TableCell align="right" sx={weight}>
          {formatMoney(books[figure])}
        </TableCell>
        <TableCell align="right" sx={{ ...weight, color: difference === 0 ? undefined : 'error.main' }}>
          {difference === 0 ? '–' : formatMoney(difference)}
        </TableCell>
      </TableRow>
    );
  };
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" id="reconciliation-figures" aria-label={translate('app.reconciliation.figures')}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('app.reconciliation.figure')}</TableCell>
            <TableCell align="right">{translate('app.reconciliation.stripe')}</TableCell>
            <TableCell align="right">{translate('app.reconciliation.books')}</TableCell>
            <TableCell align="right">{translate('app.reconciliation.difference')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {shown.map(row)}
          {row('total')}
        </TableBody>
      </Table>
    </Box>
  );
}
