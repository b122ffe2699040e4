import type { RouteDef } from '../http/routes.ts';

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
];
