import { notFound } from '../../http/errors.ts';
import { respondList, type ListSpec } from '../../http/list.ts';
import type { RouteDef } from '../../http/routes.ts';
import { parse } from '../../http/validate.ts';
import { childIds, liveVendorId } from '../params.ts';
import { commentToApi, createComment, deleteComment, updateComment, vendorComments, type CommentRow } from './queries.ts';
import { commentInput, commentPatch } from './schema.ts';

const commentList: ListSpec<CommentRow, ReturnType<typeof commentToApi>> = {
  resource: 'comments',
  sortable: { id: 'id', createdAt: 'created_at', resolvedAt: 'resolved_at', warning: 'warning' },
  defaultSort: ['createdAt', 'DESC'],
  idColumn: 'id',
  toApi: commentToApi,
};

const commentNotFound = (vendorId: number, id: number) => notFound(`Vendor ${vendorId} has no comment with the id ${id}.`);

export const commentRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/api/vendors/:id/comments',
    access: 'backoffice',
    handler: async (ctx) => respondList(ctx, vendorComments(ctx.db, await liveVendorId(ctx)), commentList),
  },
  {
    method: 'POST',
    path: '/api/vendors/:id/comments',
    access: 'backoffice',
    body: 'json',
    handler: async (ctx) => {
      const vendorId = await liveVendorId(ctx);
      const input = parse(commentInput, ctx.request.body);
      ctx.status = 201;
      ctx.body = commentToApi(await createComment(ctx.db, vendorId, input));
    },
  },
  {
    method: 'PATCH',
    path: '/api/vendors/:id/comments/:cid',
    access: 'backoffice',
    body: 'json',
    handler: async (ctx) => {
      const [vendorId, id] = await childIds(ctx, 'cid', 'comment');
      const patch = parse(commentPatch, ctx.request.body);
      const comment = await updateComment(ctx.db, vendorId, id, patch);
      if (!comment) throw commentNotFound(vendorId, id);
      ctx.body = commentToApi(comment);
    },
  },
  {
    method: 'DELETE',
    path: '/api/vendors/:id/comments/:cid',
    access: 'backoffice',
    handler: async (ctx) => {
      const [vendorId, id] = await childIds(ctx, 'cid', 'comment');
      const comment = await deleteComment(ctx.db, vendorId, id);
      if (!comment) throw commentNotFound(vendorId, id);
      ctx.body = commentToApi(comment);
    },
  },
];
