import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { lazy, Suspense, useMemo } from 'react';
import {
  Form,
  NumberInput,
  RadioButtonGroupInput,
  required,
  TextInput,
  useCreate,
  useTranslate,
  useUpdate,
  type RaRecord,
} from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { useSettings } from '../../SettingsContext.tsx';
import { saveOrFieldErrors } from '../subresourceSave.ts';
import { describeWorkingTime, type WorkingTime } from './workingTime.ts';

const MapPicker = lazy(() => import('./MapPicker.tsx'));

const simpleKinds = ['allDay', 'mornings', 'afternoons'] as const;

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

/** Weekly times (entered elsewhere) are kept unless another working time is chosen here. */
function WeeklyNote({ original }: { original?: WorkingTime }) {
  const translate = useTranslate();
  const kind: unknown = useWatch({ name: 'workingTimeKind' });
  if (original?.kind !== 'weekly' || kind !== 'weekly') return null;
  return <Typography variant="body2">{describeWorkingTime(original, translate)}</Typography>;
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
  const record = useMemo(() => ({ ...location, workingTimeKind: original?.kind ?? 'allDay' }), [location, original]);
  const kinds = [...simpleKinds, ...(original?.kind === 'weekly' ? (['weekly'] as const) : [])];

  const submit = async (values: Record<string, unknown>) => {
    const { workingTimeKind, ...rest } = values;
    const workingTime = workingTimeKind === 'weekly' ? original : { kind: workingTimeKind };
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
          <WeeklyNote original={original} />
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
