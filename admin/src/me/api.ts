import { untilPageLeaves, type Login } from '../auth/login.ts';
import { storedLocale, type Locale } from '../shared/locale.ts';
import type { VendorLine } from '../../../api/src/ledger/vendor-lines.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A GET with the vendor's token; no token (or one the API refuses) starts the login, once. */
async function authorisedGet(login: Login, path: string, accept: string): Promise<Response> {
  const user = await login.user();
  if (!user) {
    await login.signIn(login.currentPath());
    return untilPageLeaves();
  }
  const response = await fetch(path, {
    headers: { Accept: accept, 'Accept-Language': storedLocale(), Authorization: `Bearer ${user.access_token}` },
  });
  if (response.status === 401 && (await login.loginAgainAfterRefusal(login.currentPath()))) return untilPageLeaves();
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    throw new ApiError(response.status, body.message ?? response.statusText);
  }
  return response;
}

/** GET of the API's JSON with the vendor's token. */
export function createApi(login: Login) {
  return async function get<T>(path: string): Promise<T> {
    return (await (await authorisedGet(login, path, 'application/json')).json()) as T;
  };
}

/** A page of the API (a printable statement) as an object URL the caller frees. */
export function createPageApi(login: Login) {
  return async (path: string): Promise<string> =>
    URL.createObjectURL(await (await authorisedGet(login, path, 'text/html')).blob());
}

export type OpenPage = ReturnType<typeof createPageApi>;

export type Get = ReturnType<typeof createApi>;

/** GET /api/vendors/me: the vendor's record and money. */
export interface OwnVendor {
  id: number;
  licenseId: string;
  firstName: string;
  lastName: string;
  email: string | null;
  telephone: string;
  address: string;
  postCode: string;
  language: Locale;
  vendorSince: string | null;
  credit: number;
  /** `voucher`: the number on the payout's receipt. */
  lastPayout: { amount: number; at: string; voucher?: string } | null;
  openPayments: number;
}

/** GET /api/vendors/me/payments: the newest lines of the vendor's account, a card sale or a refund as one. */
export type OwnPayment = VendorLine;
