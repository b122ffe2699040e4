import NewspaperIcon from '@mui/icons-material/Newspaper';
import StarIcon from '@mui/icons-material/Star';
import { Avatar, Box, Chip, useMediaQuery, type Theme } from '@mui/material';
import {
  CreateButton,
  DataTable,
  List,
  SearchInput,
  SimpleList,
  TopToolbar,
  useRecordContext,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { assetUrl } from '../../shared/settings.ts';
import { useFormatMoney } from '../common/money.tsx';
import { PageTitle } from '../layout/PageTitle.tsx';
import { productPaths } from './paths.ts';

/** A product as GET /api/products answers it; the fields the list shows. */
interface ProductRecord extends RaRecord<number> {
  name: string;
  price: number;
  image: string | null;
  isMainProduct: boolean;
  isLicenseItem: boolean;
  disabled: boolean;
}

/** The product's image, or a placeholder that reads as "a product" (not MUI's person for a missing avatar). */
function ProductPicture({ record }: { record: ProductRecord }) {
  return record.image ? (
    <img src={assetUrl(record.image)} alt="" style={{ width: '100%', height: '100%', objectFit: 'cover' }} />
  ) : (
    <NewspaperIcon className="product-placeholder" />
  );
}

function Thumbnail() {
  const record = useRecordContext<ProductRecord>();
  if (!record) return null;
  return (
    <Avatar variant="rounded" sx={{ width: 48, height: 48 }}>
      <ProductPicture record={record} />
    </Avatar>
  );
}

/** Main product, licence item, disabled: what makes an item special, as small labels. */
function Badges() {
  const record = useRecordContext<ProductRecord>();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
      {record.isMainProduct && (
        <Chip size="small" color="primary" icon={<StarIcon />} label={translate('app.product.main')} />
      )}
      {record.isLicenseItem && <Chip size="small" label={translate('app.product.license')} />}
      {record.disabled && <Chip size="small" className="product-disabled" label={translate('app.product.disabled')} />}
    </Box>
  );
}

const greyedOut = (record: ProductRecord) => (record.disabled ? { opacity: 0.5 } : {});

export function ProductList() {
  const isSmall = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'));
  const formatMoney = useFormatMoney();
  return (
    <List
      title={<PageTitle page="app.page.products" />}
      filters={[<SearchInput key="q" source="q" alwaysOn />]}
      actions={
        <TopToolbar>
          <CreateButton to={productPaths.create} />
        </TopToolbar>
      }
      sort={{ field: 'order', order: 'DESC' }}
      perPage={50}
      exporter={false}
    >
      {isSmall ? (
        <SimpleList<ProductRecord>
          leftAvatar={(record) => <ProductPicture record={record} />}
          primaryText={(record) => record.name}
          secondaryText={(record) => formatMoney(record.price)}
          rowClick={(id) => productPaths.edit(id)}
          rowSx={greyedOut}
        />
      ) : (
        <DataTable<ProductRecord> rowClick={(id) => productPaths.edit(id)} rowSx={greyedOut} bulkActionButtons={false}>
          <DataTable.Col source="image" disableSort render={() => <Thumbnail />} />
          <DataTable.Col source="name" />
          <DataTable.Col source="price" align="right" render={(record: ProductRecord) => formatMoney(record.price)} />
          <DataTable.NumberCol source="order" />
          <DataTable.Col label="app.product.labels" disableSort render={() => <Badges />} />
        </DataTable>
      )}
    </List>
  );
}
