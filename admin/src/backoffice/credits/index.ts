import AccountBalanceWalletIcon from '@mui/icons-material/AccountBalanceWallet';
import { CreditList } from './CreditList.tsx';

/** /credits: open credits; the payout page /credits/payout/{id} is its child route (App.tsx). */
export default {
  name: 'credits',
  list: CreditList,
  icon: AccountBalanceWalletIcon,
};
