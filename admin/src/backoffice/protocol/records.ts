import { productPaths } from '../products/paths.ts';
import { vendorPaths } from '../vendors/paths.ts';

// How the protocol names a kind of record the API writes (api/src/**: AuditSpec.recordType and
// recordEvent): where its fields' labels are (the resource's own translated labels, so the protocol
// says "Licence ID" where the form does), and which screen shows the record.

type Details = Record<string, unknown> | null | undefined;

interface RecordKind {
  /** The text key below which the record's field labels are, as the record's screens use them. */
  fields?: string;
  link?: (id: string, details: Details) => string | undefined;
}

const listFiltered = (list: string, id: string) => `${list}?filter=${encodeURIComponent(JSON.stringify({ id }))}`;
const ofVendor = (_id: string, details: Details) =>
  typeof details?.vendorId === 'number' ? vendorPaths.edit(details.vendorId) : undefined;

export const recordKinds: Record<string, RecordKind> = {
  vendor: { fields: 'resources.vendorsummary.fields', link: (id) => vendorPaths.show(id) },
  vendor_location: { fields: 'app.location', link: ofVendor },
  vendor_comment: { fields: 'app.comment', link: ofVendor },
  item: { fields: 'resources.productsettings.fields', link: (id) => productPaths.edit(id) },
  settings: { fields: 'resources.settings.fields', link: () => '/settings/update' },
  payout: { fields: 'resources.payouts.fields', link: (id) => listFiltered('/payouts', id) },
  order: { fields: 'resources.orders.fields', link: (id) => listFiltered('/orders', id) },
  till: { link: () => '/tills' },
  counter_visit: { link: () => '/today' },
  'login-lock': { link: () => '/login-locks' },
};

/** Fields the API holds in minor units: shown in the installation's currency as the screen's language writes it. */
const amountFields = new Set([
  'amount',
  'amountTotal',
  'amountTip',
  'price',
  'unitPrice',
  'counterPrice',
  'maxOrderAmount',
  'credit',
  'balance',
  'expectedAmount',
  'cash',
  'tendered',
  'change',
  'cashPaid',
  'cashTendered',
]);

/** A field in minor units: one of the list, or named so ("feeCents", "totalAmount", "listPrice"). */
export const isAmount = (field: string) => amountFields.has(field) || /(Cents|Price|Amount)$/.test(field);

/** "postCode" → "Post code": a field nobody labelled still reads as words, not as code. */
export const humanised = (field: string) => {
  const words = field
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** The text key of an action ("payment.confirmed" → app.protocol.action_payment_confirmed). */
export const actionKey = (action: string) => `app.protocol.action_${action.replace(/[^a-z0-9]+/gi, '_')}`;
