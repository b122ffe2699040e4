import { vendorSubResourceRoutes } from '../subresource-routes.ts';
import { commentWithAuthor, createComment, deleteComment, updateComment, vendorComments } from './queries.ts';
import { commentInput, commentPatch } from './schema.ts';

export const commentRoutes = vendorSubResourceRoutes({
  name: 'comment',
  plural: 'comments',
  param: 'cid',
  list: {
    resource: 'comments',
    sortable: { id: 'id', createdAt: 'created_at', resolvedAt: 'resolved_at', warning: 'warning' },
    defaultSort: ['createdAt', 'DESC'],
    idColumn: 'id',
    toApi: commentWithAuthor,
  },
  input: commentInput,
  patch: commentPatch,
  query: vendorComments,
  create: createComment,
  update: updateComment,
  remove: deleteComment,
});
