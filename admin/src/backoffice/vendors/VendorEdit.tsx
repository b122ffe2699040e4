import {
  DeleteButton,
  Edit,
  ListButton,
  SaveButton,
  SimpleForm,
  Toolbar,
  TopToolbar,
  useParams,
  type RaRecord,
} from 'react-admin';
import { PageTitle } from '../layout/PageTitle.tsx';
import { VendorComments } from './comments/VendorComments.tsx';
import { VendorLocations } from './locations/VendorLocations.tsx';
import { vendorPaths } from './paths.ts';
import { VendorFields } from './VendorFields.tsx';

function EditToolbar() {
  return (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <SaveButton />
      {/* The API refuses while the credit is not zero; its message is shown as it is. */}
      <DeleteButton
        id="vendor-delete"
        mutationMode="pessimistic"
        confirmTitle="app.vendor.delete_title"
        confirmContent="app.vendor.delete_content"
        redirect={() => vendorPaths.list}
      />
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
        <SimpleForm toolbar={<EditToolbar />}>
          <VendorFields />
        </SimpleForm>
      </Edit>
      <VendorLocations vendorId={vendorId} />
      <VendorComments vendorId={vendorId} />
    </>
  );
}
