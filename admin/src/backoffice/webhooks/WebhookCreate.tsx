import { useState } from 'react';
import { Create, useRedirect } from 'react-admin';
import { PageTitle } from '../layout/PageTitle.tsx';
import type { EndpointRecord } from './record.ts';
import { SecretDialog } from './SecretDialog.tsx';
import { WebhookForm } from './WebhookForm.tsx';

/** A new endpoint; its secret is shown once, then the endpoint opens. */
export function WebhookCreate() {
  const redirect = useRedirect();
  const [made, setMade] = useState<EndpointRecord>();
  return (
    <>
      <Create
        title={<PageTitle page="app.page.new_webhook" />}
        redirect={false}
        mutationOptions={{ onSuccess: (record: EndpointRecord) => setMade(record) }}
      >
        <WebhookForm />
      </Create>
      <SecretDialog secret={made?.secret} onClose={() => made && redirect('edit', 'webhook-endpoints', made.id)} />
    </>
  );
}
