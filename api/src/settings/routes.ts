import { formFiles } from '../http/form-body.ts';
import type { ProtocolSpec, RouteDef } from '../http/routes.ts';
import { readInput } from '../http/validate.ts';
import { readSettingsForProtocol, readStyleCss, saveStyleCss, updateSettings } from './queries.ts';
import { settingsFileFields, settingsForm, styleCss } from './schema.ts';

/** The settings are one record; its id is always 1. */
const settingsProtocol: ProtocolSpec = {
  recordType: 'settings',
  id: () => 1,
  load: (ctx) => readSettingsForProtocol(ctx.db, ctx.config),
};

export const settingsRoutes: RouteDef[] = [
  {
    method: 'PUT',
    path: '/api/settings',
    access: 'backoffice',
    body: 'multipart',
    input: settingsForm,
    protocol: settingsProtocol,
    handler: async (ctx) => {
      const form = readInput(ctx, settingsForm);
      ctx.body = await updateSettings(ctx.db, ctx.config, form, formFiles(ctx, settingsFileFields));
    },
  },
  {
    method: 'PUT',
    path: '/api/settings/css',
    access: 'backoffice',
    body: 'css',
    input: styleCss,
    protocol: settingsProtocol,
    handler: async (ctx) => {
      ctx.body = { styleRevision: await saveStyleCss(ctx.db, readInput(ctx, styleCss)) };
    },
  },
  {
    method: 'GET',
    path: '/public/style.css',
    access: 'public',
    handler: async (ctx) => {
      const { css, revision } = await readStyleCss(ctx.db);
      // A URL naming the current revision never changes its content; any other must be revalidated.
      const pinned = ctx.query.rev === String(revision);
      ctx.type = 'text/css; charset=utf-8';
      ctx.set({
        'Cache-Control': pinned ? 'public, max-age=31536000, immutable' : 'no-cache',
        ETag: `"style-${revision}"`,
        'X-Content-Type-Options': 'nosniff',
      });
      ctx.status = 200;
      if (ctx.fresh) {
        ctx.status = 304;
        return;
      }
      ctx.body = css;
    },
  },
];
