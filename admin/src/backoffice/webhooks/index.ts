import WebhookIcon from '@mui/icons-material/Webhook';
import type { RaRecord } from 'react-admin';
import { loadable } from '../common/loadable.tsx';

/** Outbound webhooks: the endpoints other systems listen at and what was delivered to each (not the mail outbox). */
export default {
  name: 'webhook-endpoints',
  list: loadable(() => import('./WebhookList.tsx').then((module) => module.WebhookList)),
  create: loadable(() => import('./WebhookCreate.tsx').then((module) => module.WebhookCreate)),
  edit: loadable(() => import('./WebhookEdit.tsx').then((module) => module.WebhookEdit)),
  icon: WebhookIcon,
  recordRepresentation: (record: RaRecord) => String(record.url),
};
