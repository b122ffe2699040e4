import NewspaperIcon from '@mui/icons-material/Newspaper';
import type { RaRecord } from 'react-admin';
import { loadable } from '../common/loadable.tsx';

/** The products (API: items): list at /productsettings; create and edit at the specification's addresses. */
export default {
  name: 'productsettings',
  list: loadable(() => import('./ProductList.tsx').then((module) => module.ProductList)),
  icon: NewspaperIcon,
  recordRepresentation: (record: RaRecord) => String(record.name),
};
