import LockIcon from '@mui/icons-material/Lock';
import { loadable } from '../common/loadable.tsx';

/** Locked logins: accounts an address may not try any more, and staff's unlock. */
export default {
  name: 'login-locks',
  list: loadable(() => import('./LoginLockList.tsx').then((module) => module.LoginLockList)),
  icon: LockIcon,
};
