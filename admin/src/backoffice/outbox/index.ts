import OutboxIcon from '@mui/icons-material/Outbox';
import { loadable } from '../common/loadable.tsx';

/** The outbox: customers' mails and whether they left. */
export default {
  name: 'outbox',
  list: loadable(() => import('./OutboxList.tsx').then((module) => module.OutboxList)),
  icon: OutboxIcon,
};
