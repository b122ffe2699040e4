import { env, lang, t } from './store.ts';

// Calls to the shop's API. A refusal carries the server's sentence and, per field, where it belongs;
// a network failure becomes the shop's own "An error occurred" so the customer always reads a sentence.
// Every call names the shop's language, so the server's sentences come in it too.

export interface Refusal {
  status: number;
  message: string;
  errors: Record<string, string>;
}

export type Answer<T> = { ok: true; body: T } | { ok: false; refusal: Refusal };

export async function callApi<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<Answer<T>> {
  try {
    const res = await fetch(`${env.apiBase}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        Accept: 'application/json',
        'Accept-Language': lang.value,
        ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const body = (await res.json().catch(() => null)) as
      (T & { message?: string; errors?: Record<string, string> }) | null;
    if (res.ok) return { ok: true, body: body as T };
    return {
      ok: false,
      refusal: { status: res.status, message: body?.message || t('errorText'), errors: body?.errors ?? {} },
    };
  } catch {
    return { ok: false, refusal: { status: 0, message: t('errorText'), errors: {} } };
  }
}
