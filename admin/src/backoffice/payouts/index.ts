import PaymentsIcon from '@mui/icons-material/Payments';
import { PayoutList } from './PayoutList.tsx';

/** /payouts: the payouts made at the counter, with receipts and reversals. */
export default {
  name: 'payouts',
  list: PayoutList,
  icon: PaymentsIcon,
};
