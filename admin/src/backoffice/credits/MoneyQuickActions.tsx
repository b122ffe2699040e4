import PaymentsIcon from '@mui/icons-material/Payments';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import StorefrontIcon from '@mui/icons-material/Storefront';
import { IconButton, Tooltip } from '@mui/material';
import type { MouseEvent } from 'react';
import { useTranslate, type RaRecord } from 'react-admin';
import { Link } from 'react-router-dom';
import { counterPaths } from '../counter/paths.ts';
import { creditPaths } from './paths.ts';

/** The vendor list's money actions: to a counter visit, to the payout page, and to the vendor's account statement. */
export function MoneyQuickActions({ vendor }: { vendor: RaRecord }) {
  const translate = useTranslate();
  const licenseId = vendor.licenseId as string;
  const stop = (event: MouseEvent) => event.stopPropagation();
  return (
    <>
      <Tooltip title={translate('app.counter.visit')}>
        <IconButton
          component={Link}
          to={counterPaths.visit(licenseId)}
          onClick={stop}
          size="small"
          aria-label={translate('app.counter.visit')}
        >
          <StorefrontIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title={translate('app.books.pay_out')}>
        <IconButton
          component={Link}
          to={creditPaths.payout(vendor.id)}
          onClick={stop}
          size="small"
          aria-label={translate('app.books.pay_out')}
        >
          <PaymentsIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title={translate('app.books.statement')}>
        <IconButton
          component={Link}
          to={creditPaths.statement(licenseId)}
          onClick={stop}
          size="small"
          aria-label={translate('app.books.statement')}
        >
          <ReceiptLongIcon fontSize="small" />
        </IconButton>
      </Tooltip>
    </>
  );
}
