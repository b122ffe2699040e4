import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { Create, SimpleForm, useNavigate, useTranslate } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { PageTitle } from '../layout/PageTitle.tsx';
import { useSettings } from '../SettingsContext.tsx';
import { vendorPaths } from './paths.ts';
import type { CreatedVendor } from './record.ts';
import { VendorFields } from './VendorFields.tsx';

/** `<licenceId><postfix>`, as the API would default it; the postfix is stored with or without "@". */
function defaultEmail(licenseId: string, postfix: string): string {
  const domain = postfix.trim().replace(/^@/, '');
  return licenseId.trim() && domain ? `${licenseId.trim()}@${domain}` : '';
}

/** Keeps the e-mail at its default while the licence ID is typed, until staff type an e-mail of their own. */
function EmailFromLicenseId() {
  const { settings } = useSettings();
  const licenseId: unknown = useWatch({ name: 'licenseId' }) ?? '';
  const email: unknown = useWatch({ name: 'email' }) ?? '';
  const { setValue } = useFormContext();
  const lastDefault = useRef('');
  useEffect(() => {
    if (email !== lastDefault.current) return; // typed by hand: leave it
    const next = defaultEmail(String(licenseId), settings.vendorEmailPostfix);
    lastDefault.current = next;
    if (next !== email) setValue('email', next, { shouldDirty: true });
  }, [licenseId, email, settings.vendorEmailPostfix, setValue]);
  return null;
}

/** The new login's password, shown this once: it is stored only as a hash. */
function OneTimePasswordDialog({ vendor, onClose }: { vendor: CreatedVendor; onClose: () => void }) {
  const translate = useTranslate();
  return (
    <Dialog open onClose={onClose} aria-labelledby="vendor-login-title">
      <DialogTitle id="vendor-login-title">{translate('app.vendor.login_title')}</DialogTitle>
      <DialogContent>
        <Typography>
          {translate('app.vendor.username')}: <strong id="vendor-login-username">{vendor.login?.username}</strong>
        </Typography>
        <Typography>
          {translate('app.vendor.one_time_password')}:{' '}
          <strong id="vendor-login-password">{vendor.login?.oneTimePassword}</strong>
        </Typography>
        <Alert severity="warning" sx={{ mt: 2 }}>
          {translate('app.vendor.password_once')}
        </Alert>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {translate('app.vendor.password_noted')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function VendorCreate() {
  const [created, setCreated] = useState<CreatedVendor | null>(null);
  const navigate = useNavigate();
  return (
    <>
      <Create
        title={<PageTitle page="app.page.new_vendor" />}
        mutationOptions={{ onSuccess: (vendor: CreatedVendor) => setCreated(vendor) }}
      >
        <SimpleForm defaultValues={{ email: '', isDisabled: false }} noValidate>
          <EmailFromLicenseId />
          <VendorFields />
        </SimpleForm>
      </Create>
      {created && <OneTimePasswordDialog vendor={created} onClose={() => navigate(vendorPaths.show(created.id))} />}
    </>
  );
}
