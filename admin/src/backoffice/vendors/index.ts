import PeopleIcon from '@mui/icons-material/People';
import type { RaRecord } from 'react-admin';
import { VendorList } from './VendorList.tsx';

/**
 * The vendors: the list is react-admin's resource route (/vendorsummary); create, profile and edit
 * are custom routes at the specification's addresses (see App.tsx and paths.ts).
 */
export default {
  name: 'vendorsummary',
  list: VendorList,
  icon: PeopleIcon,
  recordRepresentation: (record: RaRecord) => `${record.licenseId} ${record.firstName} ${record.lastName}`.trim(),
};
