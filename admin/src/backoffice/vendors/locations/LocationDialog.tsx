import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { lazy, Suspense, useMemo } from 'react';
import {
  AddItemButton,
  ArrayInput,
  Form,
  NumberInput,
  RadioButtonGroupInput,
  required,
  SelectInput,
  SimpleFormIterator,
  TextInput,
  useCreate,
  useTranslate,
  useUpdate,
  type RaRecord,
} from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { useSettings } from '../../SettingsContext.tsx';
import { saveOrFieldErrors } from '../subresourceSave.ts';
import type { WorkingTime } from './workingTime.ts';

const MapPicker = lazy(() => import('./MapPicker.tsx'));

const kinds = ['allDay', 'mornings', 'afternoons', 'weekly'] as const;
const weekdays = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** A location as GET /api/vendors/:id/locations answers it. */
export interface LocationRecord extends RaRecord<number> {
  name: string;
  address: string;
  postCode: string;
  latitude: number | null;
  longitude: number | null;
  workingTime: WorkingTime;
}

/** The form's own view of the coordinates while they are edited. */
interface PositionValues {
  latitude?: unknown;
  longitude?: unknown;
}

/** The marker follows the coordinates in the form, and moving it writes them back. */
function PositionPicker() {
  const { settings } = useSettings();
  const { setValue } = useFormContext();
  const [latitude, longitude] = useWatch<PositionValues, ['latitude', 'longitude']>({
    name: ['latitude', 'longitude'],
  });
  const position =
    typeof latitude === 'number' && typeof longitude === 'number'
      ? { lat: latitude, lng: longitude }
      : { lat: settings.mapCenterLat, lng: settings.mapCenterLong };
  return (
    <Suspense fallback={<Box sx={{ height: 280 }} />}>
      <MapPicker
        position={position}
        onChange={({ lat, lng }) => {
          setValue('latitude', lat, { shouldDirty: true });
          setValue('longitude', lng, { shouldDirty: true });
        }}
      />
    </Suspense>
  );
}

/**
 * Weekly times as rows of weekday, from and to (HH:MM, as the API keeps them); shown while "weekly"
 * is chosen. The field names follow the API's (workingTime.ranges.N.to), so its refusals (an end
 * before the start, two overlapping ranges) land at the field.
 */
function WeeklyRanges() {
  const kind: unknown = useWatch({ name: 'workingTimeKind' });
  if (kind !== 'weekly') return null;
  const time = { type: 'time', validate: required(), InputLabelProps: { shrink: true }, sx: { minWidth: 120 } };
  return (
    <ArrayInput source="workingTime.ranges" label="app.location.weekly_ranges" validate={required()}>
      <SimpleFormIterator
        inline
        disableReordering
        disableClear
        addButton={<AddItemButton label="app.location.add_range" />}
        // react-admin shows a row's remove button on mouse-over only: keyboard users must reach it too.
        sx={{ '& .RaSimpleFormIterator-action': { visibility: 'visible' } }}
      >
        <SelectInput
          source="day"
          label="app.location.day"
          validate={required()}
          choices={weekdays.map((day) => ({ id: day, name: `app.location.day_${day}` }))}
        />
        <TextInput source="from" label="app.location.from" {...time} />
        <TextInput source="to" label="app.location.to" {...time} />
      </SimpleFormIterator>
    </ArrayInput>
  );
}

/** Add (no location given) or edit one location of a vendor. */
export function LocationDialog({
  vendorId,
  location,
  onClose,
}: {
  vendorId: number;
  location?: LocationRecord;
  onClose: () => void;
}) {
  const translate = useTranslate();
  const resource = `vendors/${vendorId}/locations`;
  const [create] = useCreate();
  const [update] = useUpdate();
  const original = location?.workingTime;
  const record = useMemo(
    () => ({
      ...location,
      workingTimeKind: original?.kind ?? 'allDay',
      // Choosing "weekly" starts with one row to fill in.
      workingTime: { ranges: original?.kind === 'weekly' ? original.ranges : [{ day: 'mon', from: '', to: '' }] },
    }),
    [location, original],
  );

  const submit = async (values: Record<string, unknown>) => {
    const { workingTimeKind, ...rest } = values;
    const ranges = (rest.workingTime as { ranges?: unknown } | undefined)?.ranges ?? [];
    const workingTime = workingTimeKind === 'weekly' ? { kind: 'weekly', ranges } : { kind: workingTimeKind };
    const data = {
      name: rest.name,
      address: rest.address ?? '',
      postCode: rest.postCode ?? '',
      latitude: rest.latitude ?? null,
      longitude: rest.longitude ?? null,
      workingTime,
    };
    const errors = await saveOrFieldErrors(() =>
      location
        ? update(
            resource,
            { id: location.id, data, previousData: location },
            { mutationMode: 'pessimistic', returnPromise: true },
          )
        : create(resource, { data }, { returnPromise: true }),
    );
    if (!errors) onClose();
    return errors;
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="location-dialog-title">
      <Form record={record} onSubmit={submit} noValidate>
        <DialogTitle id="location-dialog-title">
          {translate(location ? 'app.location.edit' : 'app.location.add')}
        </DialogTitle>
        <DialogContent>
          <TextInput source="name" label="app.location.name" validate={required()} />
          <TextInput source="address" label="app.location.address" />
          <TextInput source="postCode" label="app.location.post_code" />
          <RadioButtonGroupInput
            source="workingTimeKind"
            label="app.location.working_time"
            choices={kinds.map((kind) => ({ id: kind, name: `app.location.${kind}` }))}
          />
          <WeeklyRanges />
          <Box sx={{ display: 'flex', gap: 2 }}>
            <NumberInput source="latitude" label="app.location.latitude" step="any" />
            <NumberInput source="longitude" label="app.location.longitude" step="any" />
          </Box>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {translate('app.location.map_hint')}
          </Typography>
          <PositionPicker />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
          <Button type="submit" variant="contained" id="location-save">
            {translate('ra.action.save')}
          </Button>
        </DialogActions>
      </Form>
    </Dialog>
  );
}
