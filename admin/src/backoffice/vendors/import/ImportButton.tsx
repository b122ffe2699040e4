import UploadIcon from '@mui/icons-material/Upload';
import { Button } from 'react-admin';
import { Link } from 'react-router-dom';
import { vendorPaths } from '../paths.ts';

/** The vendor list's toolbar entry to the CSV import. */
export function ImportButton() {
  return (
    <Button component={Link} to={vendorPaths.import} label="app.import.action" id="vendor-import">
      <UploadIcon />
    </Button>
  );
}
