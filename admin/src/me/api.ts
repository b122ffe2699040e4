import type { AccountRow } from '../shared/ledger.ts';
import { untilPageLeaves, type Login } from '../auth/login.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** GET with the vendor's token; no token (or one the API refuses) starts the login, once. */
export function createApi(login: Login) {
  return async function get<T>(path: string): Promise<T> {
    const user = await login.user();
    if (!user) {
      await login.signIn(login.currentPath());
      return untilPageLeaves();
    }
    const response = await fetch(path, {
      headers: { Accept: 'application/json', Authorization: `Bearer ${user.access_token}` },
    });
    if (response.status === 401 && (await login.loginAgainAfterRefusal(login.currentPath()))) return untilPageLeaves();
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as { message?: string };
      throw new ApiError(response.status, body.message ?? response.statusText);
    }
    return (await response.json()) as T;
  };
}

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
  language: string;
  vendorSince: string | null;
  credit: number;
  lastPayout: { amount: number; at: string } | null;
  openPayments: number;
}

/** GET /api/vendors/me/payments: the newest rows of the vendor's account. */
export interface OwnPayment extends AccountRow {
  paidOut: boolean;
}
