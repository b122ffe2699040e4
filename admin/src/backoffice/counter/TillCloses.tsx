import DownloadIcon from '@mui/icons-material/Download';
import ReceiptIcon from '@mui/icons-material/ReceiptLong';
import {
  Box,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import type { ShopDataProvider } from '../dataProvider.ts';
import { formatDate } from '../../shared/dates.ts';
import type { Locale } from '../../shared/locale.ts';
import { useDownload } from '../common/download.ts';
import { useFormatMoney } from '../common/money.tsx';
import { PrintFrame } from '../common/PrintFrame.tsx';
import { ScrollRegion } from '../common/ScrollRegion.tsx';
import type { TillClose } from '../../../../api/src/counter/closes.ts';
import type { Till } from './CashDay.tsx';

/** The till's closes, each with its report to print, and their CSV. */
export function TillCloses({ till }: { till: Till }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const formatMoney = useFormatMoney();
  const download = useDownload();
  const [open, setOpen] = useState<TillClose>();
  const [locale] = useLocaleState();
  const { data } = useQuery({
    queryKey: ['tills', till.id, 'closes'],
    queryFn: () => dataProvider.call(`/api/tills/${till.id}/closes`) as Promise<{ closes: TillClose[] }>,
  });
  if (!data?.closes.length) return null;
  return (
    <Box>
      <Typography variant="h6" component="h2">
        {translate('app.tills.closes')}
      </Typography>
      <Button
        label="app.books.csv"
        id="till-closes-csv"
        onClick={() => void download(`/api/tills/${till.id}/closes?format=csv`, 'kassenabschluesse.csv')}
      >
        <DownloadIcon />
      </Button>
      <ScrollRegion label="app.tills.closes" pinFirstColumn>
        <Table size="small" id="till-closes">
          <TableHead>
            <TableRow>
              <TableCell>{translate('app.tills.day')}</TableCell>
              <TableCell align="right">{translate('app.tills.expected')}</TableCell>
              <TableCell align="right">{translate('app.tills.counted')}</TableCell>
              <TableCell align="right">{translate('app.tills.difference')}</TableCell>
              <TableCell>{translate('app.tills.staff')}</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {data.closes.map((c) => (
              <TableRow key={c.id}>
                <TableCell>{formatDate(c.day, locale as Locale)}</TableCell>
                <TableCell align="right">{formatMoney(c.expected)}</TableCell>
                <TableCell align="right">{formatMoney(c.counted)}</TableCell>
                <TableCell align="right">{formatMoney(c.difference)}</TableCell>
                <TableCell>{c.staff}</TableCell>
                <TableCell>
                  <Button label="app.tills.report" className="till-report-open" onClick={() => setOpen(c)}>
                    <ReceiptIcon />
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </ScrollRegion>
      <Dialog open={Boolean(open)} onClose={() => setOpen(undefined)} fullWidth maxWidth="md">
        <DialogTitle>
          {translate('app.tills.report')} {open?.day}
        </DialogTitle>
        <DialogContent>
          {open && (
            <PrintFrame path={`/api/closes/${open.id}/report`} id="till-report" title={translate('app.tills.report')} />
          )}
        </DialogContent>
        <DialogActions>
          <Button label="ra.action.close" onClick={() => setOpen(undefined)} />
        </DialogActions>
      </Dialog>
    </Box>
  );
}
