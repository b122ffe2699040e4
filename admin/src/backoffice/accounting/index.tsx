import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import { PaymentList } from './PaymentList.tsx';

/** /payments: the accounting screen, every ledger row. */
export default {
  name: 'payments',
  list: function AccountingList() {
    return <PaymentList />;
  },
  icon: AccountBalanceIcon,
};
