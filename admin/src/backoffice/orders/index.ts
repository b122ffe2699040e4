import ReceiptIcon from '@mui/icons-material/ReceiptLong';
import type { RaRecord } from 'react-admin';
import { OrderList } from './OrderList.tsx';

/** Orders as staff check them: list only; the actions ask Stripe or refund. */
export default {
  name: 'orders',
  list: OrderList,
  icon: ReceiptIcon,
  recordRepresentation: (record: RaRecord) => `#${record.id}`,
};
