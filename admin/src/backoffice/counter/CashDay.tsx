import { Alert, Box, Typography } from '@mui/material';
import { useLocale, useTranslate } from 'react-admin';
import { formatDateTime, formatDay } from '../../shared/dates.ts';
import type { Locale } from '../../shared/locale.ts';
import type { Till } from '../../../../api/src/counter/tills.ts';

// The cash day as the API answers it for a till (api/src/counter/tills.ts): a close counts every
// movement since the previous one, cash moved after today's close goes into the next day's, and the
// days no close has counted yet are named. Staff read this before they confirm a movement.

/** A till as /api/tills lists it: the API's own type (api/src/counter/tills.ts). */
export type { Till } from '../../../../api/src/counter/tills.ts';

/** A day with movements that no close has counted yet. */
export type OpenDay = Till['openDays'][number];

/** What a screen needs of a till to say where its cash day stands. */
export type TillDay = Omit<Till, 'openingBalance'>;

/** Before a movement is confirmed: today's close is done, so this cash goes into the next one. */
export function AfterCloseNotice({ till, id }: { till: TillDay | undefined; id: string }) {
  const translate = useTranslate();
  const locale = useLocale() as Locale;
  if (!till?.closedToday) return null;
  return (
    <Alert severity="info" id={id} sx={{ my: 1 }}>
      {translate('app.tills.after_close', {
        till: till.name,
        time: till.closedAt ? formatDateTime(till.closedAt, locale) : '',
      })}
    </Alert>
  );
}

/**
 * The days with movements no close has counted, each with its number of movements; earlier days are
 * named as never closed unless the heading above says so already (`plain`).
 */
export function OpenDays({ days, today, id, plain }: { days: OpenDay[]; today: string; id: string; plain?: boolean }) {
  const translate = useTranslate();
  const locale = useLocale() as Locale;
  return (
    <Box component="ul" id={id} sx={{ my: 0.5, pl: 3 }}>
      {days.map((d) => (
        <Typography
          component="li"
          variant="body2"
          key={d.day}
          className={d.day < today ? 'open-day-never-closed' : 'open-day'}
        >
          {d.day === today
            ? translate('app.tills.open_today', { smart_count: d.movements })
            : translate(d.day < today && !plain ? 'app.tills.open_day_never_closed' : 'app.tills.open_day', {
                day: formatDay(d.day, locale),
                smart_count: d.movements,
              })}
        </Typography>
      ))}
    </Box>
  );
}
