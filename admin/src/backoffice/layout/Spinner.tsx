import { Box, CircularProgress } from '@mui/material';

/** The only thing shown before the login is done: no menu, no data, no texts. */
export function Spinner() {
  return (
    <Box
      id="backoffice-loading"
      role="progressbar"
      aria-busy="true"
      sx={{ display: 'grid', placeItems: 'center', height: '100vh' }}
    >
      <CircularProgress />
    </Box>
  );
}
