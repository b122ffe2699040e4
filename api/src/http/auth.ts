import type { Middleware } from 'koa';
import { InvalidToken, IssuerUnreachable, type Verifier } from '../identity/verifier.ts';
import { HttpError } from './errors.ts';
import type { Access, AppDeps, AppState } from './context.ts';

const challenge = (error?: string) => ({
  'WWW-Authenticate': error ? `Bearer error="${error}"` : 'Bearer',
});

/** Reads a bearer token when present; whether it is required is decided per route by `authorize`. */
export function authenticate(verify: Verifier): Middleware<AppState, AppDeps> {
  return async (ctx, next) => {
    const header = ctx.get('Authorization');
    if (header) {
      const token = /^Bearer\s+([A-Za-z0-9._~+/=-]+)$/i.exec(header)?.[1];
      if (!token) throw new HttpError(401, 'Please log in again.', undefined, challenge('invalid_request'));
      try {
        ctx.state.user = await verify(token);
      } catch (error) {
        if (error instanceof InvalidToken)
          throw new HttpError(401, 'Please log in again.', undefined, challenge('invalid_token'));
        if (error instanceof IssuerUnreachable) throw new HttpError(503, error.message);
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
