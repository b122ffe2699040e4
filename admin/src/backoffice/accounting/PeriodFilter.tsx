import { Box, Button } from '@mui/material';
import type { ReactNode } from 'react';
import { List, useListContext, useTranslate, type ListProps } from 'react-admin';
import { DayField } from '../common/DayInput.tsx';
import { presetPeriod, presets } from './period.ts';

/** From and until as list filters; the API takes a bare date in the newspaper's time zone, `to` as the whole day. */
export const periodInputs = [
  <DayField key="from" source="from" filter alwaysOn />,
  <DayField key="to" source="to" filter alwaysOn />,
];

/** A books list's filter values: react-admin holds them untyped; the period's ends are bare dates. */
export type PeriodFilterValues = Record<string, unknown> & { from?: string; to?: string };

/** The filter values of the list around, typed where they enter. */
export function usePeriodFilter(): PeriodFilterValues {
  return useListContext().filterValues as PeriodFilterValues;
}

/** One click for the usual periods; "all time" lifts both ends. */
export function PeriodPresets() {
  const translate = useTranslate();
  const { setFilters } = useListContext();
  const filterValues = usePeriodFilter();
  const choose = (period: { from?: string; to?: string }) => {
    const { from: _from, to: _to, ...rest } = filterValues;
    setFilters({ ...rest, ...period });
  };
  const allTime = !filterValues.from && !filterValues.to;
  return (
    <Box
      role="group"
      aria-label={translate('app.books.period')}
      id="books-period-presets"
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 1 }}
    >
      {presets.map((preset) => {
        const period = presetPeriod(preset);
        const active = filterValues.from === period.from && filterValues.to === period.to;
        return (
          <Button
            key={preset}
            size="small"
            variant={active ? 'contained' : 'outlined'}
            aria-pressed={active}
            onClick={() => choose(period)}
          >
            {translate(`app.books.preset_${preset}`)}
          </Button>
        );
      })}
      <Button
        size="small"
        variant={allTime ? 'contained' : 'outlined'}
        aria-pressed={allTime}
        onClick={() => choose({})}
      >
        {translate('app.books.all_time')}
      </Button>
    </Box>
  );
}

/** A list of the books over a period (payments, sales, payouts): newest first, the presets above the rows. */
export function PeriodList({ children, ...props }: ListProps & { children: ReactNode }) {
  return (
    <List sort={{ field: 'createdAt', order: 'DESC' }} perPage={25} empty={false} {...props}>
      <Box sx={{ px: 1, pt: 1 }}>
        <PeriodPresets />
      </Box>
      {children}
    </List>
  );
}
