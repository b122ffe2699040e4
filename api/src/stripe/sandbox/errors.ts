/** An error answered in Stripe's shape, `{ error: { type, message, code?, param? } }`, so the SDK maps it to its own error classes. */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: 'invalid_request_error' | 'idempotency_error' | 'api_error',
    message: string,
    readonly details: { code?: string; param?: string } = {},
  ) {
    super(message);
  }

  toJSON() {
    return { error: { type: this.type, message: this.message, ...this.details } };
  }
}

export const invalidParam = (param: string, message: string, code = 'parameter_invalid') =>
  new StripeApiError(400, 'invalid_request_error', message, { code, param });

export const noSuchObject = (type: string, id: string) =>
  new StripeApiError(404, 'invalid_request_error', `No such ${type}: '${id}'`, {
    code: 'resource_missing',
    param: 'id',
  });
