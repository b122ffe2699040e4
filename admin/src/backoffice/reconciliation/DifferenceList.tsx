import { Alert, Box, Link as MuiLink, List, ListItem, Stack, Typography } from '@mui/material';
import { useLocale, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { formatDateTime } from '../../shared/dates.ts';
import type { Locale } from '../../shared/locale.ts';
import { useFormatMoney } from '../common/money.tsx';
import type { Difference } from './types.ts';

/**
 * Every Stripe object whose figure differs from the books': its id, what it is, Stripe's amount and
 * the books'. One entry per object, stacked, so a phone shows it without scrolling sideways.
 */
export function DifferenceList({ differences }: { differences: Difference[] }) {
  const translate = useTranslate();
  const locale = useLocale() as Locale;
  const formatMoney = useFormatMoney();
  if (differences.length === 0)
    return (
      <Alert severity="success" id="reconciliation-no-differences">
        <strong>{translate('app.reconciliation.none')}</strong> – {translate('app.reconciliation.none_detail')}
      </Alert>
    );
  return (
    <List id="reconciliation-differences" disablePadding>
      {differences.map((difference) => (
        <ListItem
          key={`${difference.figure} ${difference.object} ${difference.balanceTransaction ?? ''}`}
          divider
          disableGutters
          className="reconciliation-difference"
          sx={{ display: 'block' }}
        >
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={{ xs: 0.5, sm: 2 }}
            sx={{ justifyContent: 'space-between' }}
          >
            <Box sx={{ minWidth: 0 }}>
              <Typography component="p" sx={{ fontWeight: 700 }}>
                {translate(`app.reconciliation.type_${difference.type}`)} ·{' '}
                {translate(`app.reconciliation.figure_${difference.figure}`)}
              </Typography>
              <Typography
                component="p"
                variant="body2"
                sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}
                className="reconciliation-object"
              >
                {difference.object}
              </Typography>
              <Typography component="p" variant="body2" color="text.secondary">
                {formatDateTime(difference.at, locale)}
                {difference.orderId !== null && (
                  <>
                    {' · '}
                    <MuiLink
                      component={Link}
                      to={`/orders?filter=${encodeURIComponent(JSON.stringify({ id: [difference.orderId] }))}`}
                      className="reconciliation-order"
                    >
                      {translate('app.reconciliation.order', { id: difference.orderId })}
                    </MuiLink>
                  </>
                )}
              </Typography>
            </Box>
            <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto auto', columnGap: 2 }}>
              <Typography component="dt" variant="body2">
                {translate('app.reconciliation.stripe')}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0, textAlign: 'right' }}>
                {formatMoney(difference.stripe)}
              </Typography>
              <Typography component="dt" variant="body2">
                {translate('app.reconciliation.books')}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0, textAlign: 'right' }}>
                {formatMoney(difference.books)}
              </Typography>
              <Typography component="dt" variant="body2" sx={{ fontWeight: 700 }}>
                {translate('app.reconciliation.difference')}
              </Typography>
              <Typography
                component="dd"
                variant="body2"
                sx={{ m: 0, textAlign: 'right', fontWeight: 700, color: 'error.main' }}
              >
                {formatMoney(difference.stripe - difference.books)}
              </Typography>
            </Box>
          </Stack>
        </ListItem>
      ))}
    </List>
  );
}
