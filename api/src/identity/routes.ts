import { HttpError } from '../http/errors.ts';
import { pathParam } from '../http/params.ts';
import type { AppContext, RouteDef } from '../http/routes.ts';
import { lockedAccounts, unlockAccount } from './provider/throttle.ts';

const lockOf = async (ctx: AppContext, username: string | number) =>
  (await lockedAccounts(ctx.db, ctx.config.loginThrottle, String(username))).map((lock) => ({
    id: lock.username,
    ...lock,
  }))[0];

export const identityRoutes: RouteDef[] = [
  {
    // Who am I: the back office and the vendor area ask this right after logging in.
    method: 'GET',
    path: '/api/auth/hello',
    access: 'authenticated',
    handler: (ctx) => {
      const { sub, username, email, groups } = ctx.state.user!;
      ctx.body = { sub, username, email: email ?? null, groups };
    },
  },
  {
    // Accounts of the embedded provider that some address may not try any more, or that wait between attempts.
    method: 'GET',
    path: '/api/login-locks',
    access: 'backoffice',
    handler: async (ctx) => {
      const locks = (await lockedAccounts(ctx.db, ctx.config.loginThrottle)).map((lock) => ({
        id: lock.username,
        ...lock,
      }));
      ctx.set('Content-Range', `login-locks 0-${Math.max(locks.length - 1, 0)}/${locks.length}`);
      ctx.body = locks;
    },
  },
  {
    // Staff lift the locks when the owner cannot wait (or an attacker keeps the account slow).
    method: 'DELETE',
    path: '/api/login-locks/:username',
    access: 'backoffice',
    protocol: {
      recordType: 'login-lock',
      id: (ctx) => pathParam(ctx, 'username'),
      load: lockOf,
      action: 'login.unlocked',
    },
    handler: async (ctx) => {
      const username = pathParam(ctx, 'username');
      const lock = await lockOf(ctx, username);
      if (!lock || !(await unlockAccount(ctx.db, username))) {
        throw new HttpError(404, 'This login is not locked (any more).');
      }
      ctx.body = lock;
    },
  },
];
