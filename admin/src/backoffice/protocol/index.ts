import HistoryIcon from '@mui/icons-material/History';
import { loadable } from '../common/loadable.tsx';

/** The protocol: a read-only list of who changed what. */
export default {
  name: 'protocol',
  list: loadable(() => import('./ProtocolList.tsx').then((module) => module.ProtocolList)),
  icon: HistoryIcon,
};
