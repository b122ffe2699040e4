import { respondList } from '../http/list-query.ts';
import type { RouteDef } from '../http/routes.ts';
import { toIso } from '../foundations/dates.ts';
import { idFilter, type ListSpec, oneOfFilter } from '../foundations/lists.ts';

interface OutboxRow {
  id: number;
  kind: string;
  order_id: number | null;
  recipient: string;
  subject: string;
  text: string;
  status: string;
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
  sent_at: Date | null;
  created_at: Date;
}

const statuses = ['queued', 'sent', 'stored', 'failed'];

/** The outbox as staff read it: without a mail server, this is where customers' mails wait to be forwarded. */
const outboxList: ListSpec<OutboxRow, unknown> = {
  resource: 'outbox',
  sortable: {
    id: 'id',
    createdAt: 'created_at',
    status: 'status',
    recipient: 'lower(recipient)',
    nextAttemptAt: 'next_attempt_at',
  },
  defaultSort: ['createdAt', 'DESC'],
  idColumn: 'id',
  filters: {
    status: oneOfFilter('status', 'status', statuses),
    orderId: idFilter('orderId', 'order_id', 'an order id'),
  },
  toApi: (row) => ({
    id: row.id,
    kind: row.kind,
    orderId: row.order_id,
    recipient: row.recipient,
    subject: row.subject,
    text: row.text,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: toIso(row.next_attempt_at),
    lastError: row.last_error,
    sentAt: toIso(row.sent_at),
    createdAt: toIso(row.created_at),
  }),
};

export const mailRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/api/outbox',
    access: 'backoffice',
    handler: (ctx) => respondList(ctx, ctx.db('outbox').select('*'), outboxList),
  },
];
