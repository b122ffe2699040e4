import { Create } from 'react-admin';
import { PageTitle } from '../layout/PageTitle.tsx';
import { productPaths } from './paths.ts';
import { ProductForm, useProductTransform } from './ProductForm.tsx';

/** /newproduct */
export function ProductCreate() {
  const transform = useProductTransform();
  return (
    <Create title={<PageTitle page="app.page.new_product" />} transform={transform} redirect={() => productPaths.list}>
      <ProductForm />
    </Create>
  );
}
