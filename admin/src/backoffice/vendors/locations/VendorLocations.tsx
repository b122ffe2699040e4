import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { Button, Card, CardContent, IconButton, List, ListItem, ListItemText, Typography } from '@mui/material';
import { useState } from 'react';
import { Confirm, useDelete, useGetList, useLocale, useNotify, useTranslate } from 'react-admin';
import { formatDateTime } from '../../../shared/dates.ts';
import type { Locale } from '../../../shared/locale.ts';
import { LocationDialog, type LocationRecord } from './LocationDialog.tsx';
import { describeWorkingTime } from './workingTime.ts';

/** A location as the list answers it: with when and by whom it was added (null before the protocol). */
interface ListedLocation extends LocationRecord {
  createdAt?: string | null;
  createdBy?: string | null;
}

/** The places where a vendor sells: listed, added, edited and removed on the vendor's edit page. */
export function VendorLocations({ vendorId }: { vendorId: number }) {
  const translate = useTranslate();
  const notify = useNotify();
  const locale = useLocale() as Locale;
  const resource = `vendors/${vendorId}/locations`;
  const { data, isPending } = useGetList<ListedLocation>(resource, {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'id', order: 'ASC' },
  });
  const [deleteOne] = useDelete();
  const [editing, setEditing] = useState<LocationRecord | 'new' | null>(null);
  const [removing, setRemoving] = useState<LocationRecord | null>(null);

  const remove = async () => {
    const location = removing!;
    setRemoving(null);
    try {
      await deleteOne(
        resource,
        { id: location.id, previousData: location },
        { mutationMode: 'pessimistic', returnPromise: true },
      );
      notify('app.location.deleted', { type: 'info' });
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    }
  };

  return (
    <Card id="vendor-locations" sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="h6" component="h2">
          {translate('app.location.title')}
        </Typography>
        {!isPending && !data?.length && (
          <Typography id="vendor-no-locations">{translate('app.location.none')}</Typography>
        )}
        <List dense>
          {data?.map((location) => (
            <ListItem
              key={location.id}
              className="vendor-location"
              // MUI keeps room for one button beside the text; there are two.
              sx={{ pr: 12 }}
              secondaryAction={
                <>
                  <IconButton aria-label={translate('ra.action.edit')} onClick={() => setEditing(location)}>
                    <EditIcon />
                  </IconButton>
                  <IconButton aria-label={translate('ra.action.delete')} onClick={() => setRemoving(location)}>
                    <DeleteIcon />
                  </IconButton>
                </>
              }
            >
              <ListItemText
                primary={location.name}
                secondary={
                  <>
                    {[location.address, location.postCode, describeWorkingTime(location.workingTime, translate)]
                      .filter(Boolean)
                      .join(' · ')}
                    {location.createdAt && (
                      <span className="vendor-location-created">
                        <br />
                        {translate(location.createdBy ? 'app.location.created_by' : 'app.location.created', {
                          date: formatDateTime(location.createdAt, locale),
                          name: location.createdBy,
                        })}
                      </span>
                    )}
                  </>
                }
              />
            </ListItem>
          ))}
        </List>
        <Button startIcon={<AddIcon />} onClick={() => setEditing('new')} id="location-add">
          {translate('app.location.add')}
        </Button>
      </CardContent>
      {editing && (
        <LocationDialog
          vendorId={vendorId}
          location={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
        />
      )}
      <Confirm
        isOpen={!!removing}
        title="app.location.delete_title"
        content="app.location.delete_content"
        translateOptions={{ name: removing?.name ?? '' }}
        onConfirm={() => void remove()}
        onClose={() => setRemoving(null)}
      />
    </Card>
  );
}
