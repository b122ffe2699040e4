import { Box, Typography } from '@mui/material';
import {
  DeleteButton,
  Edit,
  ListButton,
  SaveButton,
  SimpleForm,
  Toolbar,
  TopToolbar,
  useParams,
  useRecordContext,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { useFormatMoney } from '../common/money.tsx';
import { PageTitle } from '../layout/PageTitle.tsx';
import { VendorComments } from './comments/VendorComments.tsx';
import { VendorLocations } from './locations/VendorLocations.tsx';
import { vendorPaths } from './paths.ts';
import type { VendorRecord } from './record.ts';
import { VendorFields } from './VendorFields.tsx';

/**
 * Deleting is irreversible and the API refuses it while the credit is not zero (the money would
 * vanish), so it is not offered then: the button is disabled and the reason stands next to it.
 */
function Delete() {
  const record = useRecordContext<VendorRecord>();
  const translate = useTranslate();
  const formatMoney = useFormatMoney();
  const credit = record?.credit ?? 0;
  const blocked = credit !== 0;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
      {blocked && (
        <Typography variant="body2" id="vendor-delete-blocked" sx={{ maxWidth: 420 }}>
          {translate('app.vendor.delete_blocked', { amount: formatMoney(credit) })}
        </Typography>
      )}
      <DeleteButton
        id="vendor-delete"
        disabled={blocked}
        aria-describedby={blocked ? 'vendor-delete-blocked' : undefined}
        mutationMode="pessimistic"
        confirmTitle="app.vendor.delete_title"
        confirmContent="app.vendor.delete_content"
        redirect={() => vendorPaths.list}
      />
    </Box>
  );
}

function EditToolbar() {
  return (
    <Toolbar sx={{ justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
      <SaveButton />
      <Delete />
    </Toolbar>
  );
}

function EditActions() {
  return (
    <TopToolbar>
      <ListButton to={vendorPaths.list} />
    </TopToolbar>
  );
}

/** /userprofile/{id}/update: the vendor's data (deactivate, delete), then locations and comments. */
export function VendorEdit() {
  const { id } = useParams();
  const vendorId = Number(id);
  return (
    <>
      <Edit
        title={<PageTitle page="app.page.edit_vendor" />}
        actions={<EditActions />}
        mutationMode="pessimistic"
        redirect={(_resource?: string, savedId?: RaRecord['id']) => vendorPaths.show(savedId ?? vendorId)}
      >
        <SimpleForm toolbar={<EditToolbar />} noValidate>
          <VendorFields />
        </SimpleForm>
      </Edit>
      <VendorLocations vendorId={vendorId} />
      <VendorComments vendorId={vendorId} />
    </>
  );
}
