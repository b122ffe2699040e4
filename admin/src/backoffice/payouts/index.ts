import PaymentsIcon from '@mui/icons-material/Payments';
import { loadable } from '../common/loadable.tsx';

/** /payouts: the payouts made at the counter, with receipts and reversals. */
export default {
  name: 'payouts',
  list: loadable(() => import('./PayoutList.tsx').then((module) => module.PayoutList)),
  icon: PaymentsIcon,
};
