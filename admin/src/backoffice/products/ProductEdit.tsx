import { DeleteButton, Edit, ListButton, SaveButton, Toolbar, TopToolbar } from 'react-admin';
import { PageTitle } from '../layout/PageTitle.tsx';
import { productPaths } from './paths.ts';
import { ProductForm, useProductTransform } from './ProductForm.tsx';

function EditToolbar() {
  return (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <SaveButton />
      <DeleteButton mutationMode="pessimistic" redirect={() => productPaths.list} />
    </Toolbar>
  );
}

/** /productsettings/update/{id} */
export function ProductEdit() {
  const transform = useProductTransform();
  return (
    <Edit
      title={<PageTitle page="app.page.edit_product" />}
      actions={
        <TopToolbar>
          <ListButton to={productPaths.list} />
        </TopToolbar>
      }
      mutationMode="pessimistic"
      transform={transform}
      redirect={() => productPaths.list}
    >
      <ProductForm toolbar={<EditToolbar />} />
    </Edit>
  );
}
