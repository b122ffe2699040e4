// The shop's routes (specification §2) from a path and query, the same in page mode (the real URL)
// and embedded mode (a path kept in memory).

export const steps = [
  'check-id',
  'landing-page',
  'shop',
  'items',
  'item-available',
  'additionalproducts',
  'print-digital',
  'information',
  'tipping',
  'custom-tip',
  'confirmation',
  'payment',
] as const;
export type Step = (typeof steps)[number];

export type Route =
  | { page: 'vendor'; id: string; step: Step; item?: number; order?: string }
  | { page: 'go-to-vendor' }
  | { page: 'receipt'; order: string }
  | { page: 'success'; order: string; sessionId: string }
  | { page: 'failure'; order: string }
  | { page: 'pdf'; id: string }
  /** `vendor`: a step that vendor's shop does not know; the page leads back into that shop. */
  | { page: 'not-found'; vendor?: string }
  | { page: 'error' }
  | { page: 'invalid-link' }
  | { page: 'maintenance' };

const simplePages: Record<string, Route> = {
  '/404': { page: 'not-found' },
  '/error': { page: 'error' },
  '/error-invalid-link': { page: 'invalid-link' },
  '/maintenance': { page: 'maintenance' },
};

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** `/` and every path that matches nothing lead to the go-to-vendor page. */
export function parseRoute(path: string): Route {
  const url = new URL(path, 'http://shop.invalid');
  const pathname = url.pathname.replace(/\/+$/, '') || '/';
  const query = (name: string) => url.searchParams.get(name) ?? '';
  const vendor = /^\/v\/([^/]+)(?:\/([^/]+))?$/.exec(pathname);
  if (vendor) {
    const id = decode(vendor[1]);
    const step = (vendor[2] ?? 'landing-page') as Step;
    if (!id) return { page: 'go-to-vendor' };
    if (!steps.includes(step)) return { page: 'not-found', vendor: id };
    const item = Number(query('item'));
    if (step === 'item-available' && Number.isInteger(item) && item > 0) return { page: 'vendor', id, step, item };
    if (step === 'payment' && query('order')) return { page: 'vendor', id, step, order: query('order') };
    return { page: 'vendor', id, step };
  }
  const pdf = /^\/pdf\/([^/]+)$/.exec(pathname);
  if (pdf) return { page: 'pdf', id: decode(pdf[1]) ?? '' };
  switch (pathname) {
    case '/paymentconfirmation':
      return { page: 'receipt', order: query('order') };
    case '/success':
      return { page: 'success', order: query('order'), sessionId: query('session_id') };
    case '/failure':
      return { page: 'failure', order: query('order') };
  }
  return simplePages[pathname] ?? { page: 'go-to-vendor' };
}

export const stepPath = (id: string, step: Step, query = '') => `/v/${encodeURIComponent(id)}/${step}${query}`;
export const receiptPath = (order: string) => `/paymentconfirmation?order=${encodeURIComponent(order)}`;
export const failurePath = (order: string) => `/failure?order=${encodeURIComponent(order)}`;
export const successPath = (order: string, sessionId = '') =>
  `/success?order=${encodeURIComponent(order)}&session_id=${encodeURIComponent(sessionId)}`;
