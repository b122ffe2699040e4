import ReceiptIcon from '@mui/icons-material/ReceiptLong';
import type { RaRecord } from 'react-admin';
import { loadable } from '../common/loadable.tsx';

/** Orders as staff check them: list only; the actions ask Stripe or refund. */
export default {
  name: 'orders',
  list: loadable(() => import('./OrderList.tsx').then((module) => module.OrderList)),
  icon: ReceiptIcon,
  recordRepresentation: (record: RaRecord) => `#${record.id}`,
};
