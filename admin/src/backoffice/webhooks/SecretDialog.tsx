import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useTranslate } from 'react-admin';

/** The endpoint's secret, shown the one time the API gives it out. */
export function SecretDialog({ secret, onClose }: { secret: string | undefined; onClose: () => void }) {
  const translate = useTranslate();
  return (
    <Dialog open={!!secret} onClose={onClose} aria-labelledby="webhook-secret-title">
      <DialogTitle id="webhook-secret-title">{translate('app.webhooks.secret_title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{translate('app.webhooks.secret_text')}</DialogContentText>
        <DialogContentText
          component="pre"
          id="webhook-secret"
          sx={{
            mt: 2,
            p: 1,
            bgcolor: 'action.hover',
            fontFamily: 'monospace',
            overflowWrap: 'anywhere',
            whiteSpace: 'pre-wrap',
          }}
        >
          {secret}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} variant="contained" id="webhook-secret-done">
          {translate('app.webhooks.secret_done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
