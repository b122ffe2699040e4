import OutboxIcon from '@mui/icons-material/Outbox';
import { OutboxList } from './OutboxList.tsx';

/** The outbox: customers' mails and whether they left. */
export default {
  name: 'outbox',
  list: OutboxList,
  icon: OutboxIcon,
};
