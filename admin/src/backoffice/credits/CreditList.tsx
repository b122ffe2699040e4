import PaymentsIcon from '@mui/icons-material/Payments';
import { Box, Typography, useMediaQuery, type Theme } from '@mui/material';
import type { MouseEvent } from 'react';
import { Button, DataTable, List, SimpleList, useLocale, useRecordContext, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { formatDate } from '../../shared/dates.ts';
import type { Locale } from '../../shared/locale.ts';
import { useFormatMoney } from '../common/money.tsx';
import { PageTitle } from '../layout/PageTitle.tsx';
import { creditPaths } from './paths.ts';
import type { CreditRecord } from './record.ts';

function PayoutButton() {
  const record = useRecordContext<CreditRecord>();
  if (!record) return null;
  return (
    <Button
      component={Link}
      to={creditPaths.payout(record.id)}
      onClick={(event: MouseEvent) => event.stopPropagation()}
      label="app.books.pay_out"
      variant="contained"
      className="credit-payout"
    >
      <PaymentsIcon />
    </Button>
  );
}

function Empty() {
  const translate = useTranslate();
  return (
    <Box sx={{ p: 3 }} id="credits-empty">
      <Typography>{translate('app.books.no_open_credits')}</Typography>
    </Box>
  );
}

/** /credits: vendors with credit to pay out, the largest first, each with the way to the payout page. */
export function CreditList() {
  const isSmall = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'));
  const formatMoney = useFormatMoney();
  const locale = useLocale() as Locale;
  const lastPayout = (record: CreditRecord) =>
    record.lastPayout ? `${formatMoney(record.lastPayout.amount)} · ${formatDate(record.lastPayout.at, locale)}` : '—';
  return (
    <List
      resource="vendorsummary"
      storeKey="credits"
      title={<PageTitle page="app.page.credits" />}
      filter={{ hasCredit: true }}
      sort={{ field: 'credit', order: 'DESC' }}
      actions={false}
      empty={<Empty />}
      perPage={50}
    >
      {isSmall ? (
        <SimpleList
          primaryText={(record: CreditRecord) => `${record.licenseId} · ${record.firstName} ${record.lastName}`}
          secondaryText={(record: CreditRecord) => formatMoney(record.credit)}
          tertiaryText={() => <PayoutButton />}
          linkType={false}
        />
      ) : (
        <DataTable bulkActionButtons={false} rowClick={(id) => creditPaths.payout(id)}>
          <DataTable.Col source="licenseId" />
          <DataTable.Col source="firstName" />
          <DataTable.Col source="lastName" />
          <DataTable.Col source="credit" align="right" render={(record: CreditRecord) => formatMoney(record.credit)} />
          <DataTable.Col source="lastPayout" render={lastPayout} />
          <DataTable.Col label="app.vendor.actions" disableSort render={() => <PayoutButton />} />
        </DataTable>
      )}
    </List>
  );
}
