import type { Middleware } from 'koa';
import { HttpError } from './errors.ts';
import type { Access, AppDeps, AppState, Caller } from './context.ts';

/** The check a bearer token goes through (app.ts hands over identity's verifier): the caller it names. */
export type TokenCheck = (token: string) => Promise<Caller>;

/**
 * Why the check's error left no caller: the token is not valid, or the login service that could
 * tell cannot be reached; undefined for an error that is neither.
 */
export type TokenRefusal = (error: unknown) => 'invalid_token' | 'issuer_unreachable' | undefined;

const challenge = (error?: string) => ({
  'WWW-Authenticate': error ? `Bearer error="${error}"` : 'Bearer',
});

/** Reads a bearer token when present; whether it is required is decided per route by `authorize`. */
export function authenticate(verify: TokenCheck, refusalOf: TokenRefusal): Middleware<AppState, AppDeps> {
  return async (ctx, next) => {
    const header = ctx.get('Authorization');
    if (header) {
      const token = /^Bearer\s+([A-Za-z0-9._~+/=-]+)$/i.exec(header)?.[1];
      if (!token) throw new HttpError(401, 'Please log in again.', undefined, challenge('invalid_request'));
      try {
        ctx.state.user = await verify(token);
      } catch (error) {
        const refusal = refusalOf(error);
        if (refusal === 'invalid_token')
          throw new HttpError(401, 'Please log in again.', undefined, challenge('invalid_token'));
        if (refusal === 'issuer_unreachable') throw new HttpError(503, (error as Error).message);
        throw error;
      }
    }
    await next();
  };
}

export function authorize(access: Access): Middleware<AppState, AppDeps> {
  return async (ctx, next) => {
    if (access !== 'public') {
      const user = ctx.state.user;
      if (!user) throw new HttpError(401, 'Please log in.', undefined, challenge());
      if (access !== 'authenticated' && !user.groups.includes(access)) {
        throw new HttpError(403, 'You are not allowed to do this.');
      }
    }
    await next();
  };
}
