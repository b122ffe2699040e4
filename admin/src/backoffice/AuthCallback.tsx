import { Alert, Box, Button } from '@mui/material';
import { useHandleAuthCallback, useTranslate } from 'react-admin';
import { Spinner } from './layout/Spinner.tsx';

/**
 * /backoffice/auth-callback: the provider sends the browser back here with the code. A callback that
 * cannot be completed (reloaded, or an expired login) offers a new login instead of starting one by
 * itself, so a broken setup cannot send the browser round in circles.
 */
export function AuthCallback() {
  const { error } = useHandleAuthCallback();
  const translate = useTranslate();
  if (!error) return <Spinner />;
  return (
    <Box sx={{ maxWidth: 480, mx: 'auto', mt: 8, px: 2 }}>
      <Alert id="backoffice-login-failed" severity="error" sx={{ mb: 2 }}>
        {translate('app.auth.callback_failed')}
      </Alert>
      <Button variant="contained" href="/backoffice/">
        {translate('app.auth.login_again')}
      </Button>
    </Box>
  );
}
