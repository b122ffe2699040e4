import { Create } from 'react-admin';
import { PageTitle } from '../layout/PageTitle.tsx';
import { productPaths } from './paths.ts';
import { ProductForm, productTransform } from './ProductForm.tsx';

/** /newproduct */
export function ProductCreate() {
  return (
    <Create
      title={<PageTitle page="app.page.new_product" />}
      transform={productTransform}
      redirect={() => productPaths.list}
    >
      <ProductForm />
    </Create>
  );
}
