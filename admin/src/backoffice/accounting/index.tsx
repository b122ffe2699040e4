import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import { loadable } from '../common/loadable.tsx';

/** /payments: the accounting screen, every ledger row. */
export default {
  name: 'payments',
  list: loadable(() =>
    import('./PaymentList.tsx').then(
      ({ PaymentList }) =>
        function AccountingList() {
          return <PaymentList />;
        },
    ),
  ),
  icon: AccountBalanceIcon,
};
