import HistoryIcon from '@mui/icons-material/History';
import { ProtocolList } from './ProtocolList.tsx';

/** The protocol: a read-only list of who changed what. */
export default {
  name: 'protocol',
  list: ProtocolList,
  icon: HistoryIcon,
};
