import AccountBalanceWalletIcon from '@mui/icons-material/AccountBalanceWallet';
import { loadable } from '../common/loadable.tsx';

/** /credits: open credits; the payout page /credits/payout/{id} is its child route (App.tsx). */
export default {
  name: 'credits',
  list: loadable(() => import('./CreditList.tsx').then((module) => module.CreditList)),
  icon: AccountBalanceWalletIcon,
};
