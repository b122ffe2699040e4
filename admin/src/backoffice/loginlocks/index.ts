import LockIcon from '@mui/icons-material/Lock';
import { LoginLockList } from './LoginLockList.tsx';

/** Locked logins: accounts an address may not try any more, and staff's unlock. */
export default {
  name: 'login-locks',
  list: LoginLockList,
  icon: LockIcon,
};
