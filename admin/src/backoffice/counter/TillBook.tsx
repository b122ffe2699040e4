import DownloadIcon from '@mui/icons-material/Download';
import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import type { ShopDataProvider } from '../dataProvider.ts';
import { formatDateTime } from '../../shared/dates.ts';
import type { Locale } from '../../shared/locale.ts';
import { DayInput } from '../common/DayInput.tsx';
import { useDownload } from '../common/download.ts';
import { useFormatMoney } from '../common/money.tsx';
import { ScrollRegion } from '../common/ScrollRegion.tsx';
import type { CashMovement } from '../../../../api/src/counter/cash-book.ts';
import type { Till } from './CashDay.tsx';

/** The till's cash book for a span of days, with its CSV. */
export function TillBook({ till, today }: { till: Till; today: string }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const formatMoney = useFormatMoney();
  const [from, setFrom] = useState(today);
  const [to, setTo] = useState(today);
  const download = useDownload();
  const { data } = useQuery({
    queryKey: ['tills', till.id, 'book', from, to],
    queryFn: () =>
      dataProvider.call(`/api/tills/${till.id}/book?from=${from}&to=${to}`) as Promise<{ movements: CashMovement[] }>,
  });
  return (
    <Box sx={{ mb: 3 }}>
      <Typography variant="h6" component="h2">
        {translate('app.tills.book')}
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, my: 1 }}>
        <DayInput id="till-book-from" label={translate('app.tills.from')} value={from} onChange={setFrom} />
        <DayInput id="till-book-to" label={translate('app.tills.to')} value={to} onChange={setTo} />
        <Button
          label="app.books.csv"
          id="till-book-csv"
          onClick={() =>
            void download(`/api/tills/${till.id}/book?format=csv&from=${from}&to=${to}`, `kassenbuch-${from}-${to}.csv`)
          }
        >
          <DownloadIcon />
        </Button>
      </Box>
      {data && data.movements.length === 0 ? (
        <Typography color="text.secondary" id="till-book-empty">
          {translate('app.tills.empty')}
        </Typography>
      ) : (
        <ScrollRegion label="app.tills.book" pinFirstColumn>
          <Table size="small" id="till-book">
            <TableHead>
              <TableRow>
                {['voucher', 'date', 'kind', 'counterpart', 'reason', 'staff', 'in', 'out', 'running'].map((key) => (
                  <TableCell key={key} align={['in', 'out', 'running'].includes(key) ? 'right' : 'left'}>
                    {translate(`app.tills.${key}`)}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {data?.movements.map((m) => (
                <TableRow key={m.id}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{m.voucher}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(m.createdAt, locale as Locale)}</TableCell>
                  <TableCell>{translate(`app.tills.kind_${m.kind}`)}</TableCell>
                  <TableCell>
                    {m.vendor
                      ? `${m.vendor.name} (${m.vendor.licenseId})`
                      : translate(`app.tills.counterpart_${m.counterpart}`)}
                  </TableCell>
                  <TableCell>{m.reason}</TableCell>
                  <TableCell>{m.staff}</TableCell>
                  <TableCell align="right">{m.amountIn ? formatMoney(m.amountIn) : ''}</TableCell>
                  <TableCell align="right">{m.amountOut ? formatMoney(m.amountOut) : ''}</TableCell>
                  <TableCell align="right">{formatMoney(m.balance)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </ScrollRegion>
      )}
    </Box>
  );
}
