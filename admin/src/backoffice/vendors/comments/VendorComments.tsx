import DeleteIcon from '@mui/icons-material/Delete';
import TaskAltIcon from '@mui/icons-material/TaskAlt';
import WarningIcon from '@mui/icons-material/WarningAmber';
import {
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  IconButton,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Tooltip,
  Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';
import {
  BooleanInput,
  Confirm,
  Form,
  TextInput,
  required,
  useCreate,
  useDelete,
  useGetList,
  useLocale,
  useNotify,
  useTranslate,
  useUpdate,
  type RaRecord,
} from 'react-admin';
import { formatDateTime } from '../../../shared/dates.ts';
import type { Locale } from '../../../shared/locale.ts';
import { saveOrFieldErrors } from '../subresourceSave.ts';

/** A comment as GET /api/vendors/:id/comments answers it. */
interface CommentRecord extends RaRecord<number> {
  comment: string;
  warning: boolean;
  createdAt: string;
  resolvedAt: string | null;
  /** The staff member who wrote it, as the protocol recorded it; null for older comments. */
  createdBy: string | null;
}

/** Notes about a vendor for the whole office: a warning stands out until it is resolved. */
export function VendorComments({ vendorId }: { vendorId: number }) {
  const translate = useTranslate();
  const locale = useLocale();
  const notify = useNotify();
  const resource = `vendors/${vendorId}/comments`;
  const { data, isPending } = useGetList<CommentRecord>(resource, {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'createdAt', order: 'DESC' },
  });
  const [create] = useCreate();
  const [update] = useUpdate();
  const [deleteOne] = useDelete();
  // A new key gives the next comment an empty form.
  const [formKey, setFormKey] = useState(0);
  // A comment, a warning above all ("Hat Hausverbot …"), is gone for good once deleted: ask first.
  const [removing, setRemoving] = useState<CommentRecord | null>(null);
  const when = (iso: string) => formatDateTime(iso, locale as Locale);
  // The list's quick action "comments" lands here: bring the comments into view, ready to type.
  useEffect(() => {
    if (isPending || window.location.hash !== '#vendor-comments') return;
    document.getElementById('vendor-comments')?.scrollIntoView();
    document.querySelector<HTMLTextAreaElement | HTMLInputElement>('#vendor-comments [name="comment"]')?.focus();
  }, [isPending]);

  const add = async (values: Record<string, unknown>) => {
    const errors = await saveOrFieldErrors(() =>
      create(resource, { data: { comment: values.comment, warning: !!values.warning } }, { returnPromise: true }),
    );
    if (!errors) setFormKey((key) => key + 1);
    return errors;
  };
  const change = async (comment: CommentRecord, data: Record<string, unknown>, done: string) => {
    try {
      await update(
        resource,
        { id: comment.id, data, previousData: comment },
        { mutationMode: 'pessimistic', returnPromise: true },
      );
      notify(done, { type: 'info' });
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    }
  };
  const remove = async () => {
    const comment = removing!;
    setRemoving(null);
    try {
      await deleteOne(
        resource,
        { id: comment.id, previousData: comment },
        { mutationMode: 'pessimistic', returnPromise: true },
      );
      notify('app.comment.deleted', { type: 'info' });
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    }
  };

  return (
    <Card id="vendor-comments" sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="h6" component="h2">
          {translate('app.comment.title')}
        </Typography>
        {!isPending && !data?.length && (
          <Typography id="vendor-no-comments">{translate('app.comment.none')}</Typography>
        )}
        <List dense>
          {data?.map((comment) => (
            <ListItem
              key={comment.id}
              className={`vendor-comment${comment.warning && !comment.resolvedAt ? ' vendor-comment-warning' : ''}`}
              // A resolved comment steps back in grey text, not by fading: faded text fails WCAG contrast.
              sx={comment.resolvedAt ? { '& .MuiListItemText-primary': { color: 'text.secondary' } } : undefined}
              secondaryAction={
                <>
                  {!comment.resolvedAt && (
                    <Tooltip title={translate('app.comment.resolve')}>
                      <IconButton
                        aria-label={translate('app.comment.resolve')}
                        onClick={() => void change(comment, { resolved: true }, 'app.comment.resolved_done')}
                      >
                        <TaskAltIcon />
                      </IconButton>
                    </Tooltip>
                  )}
                  <Tooltip title={translate('ra.action.delete')}>
                    <IconButton aria-label={translate('ra.action.delete')} onClick={() => setRemoving(comment)}>
                      <DeleteIcon />
                    </IconButton>
                  </Tooltip>
                </>
              }
            >
              <ListItemIcon>
                {comment.warning ? <WarningIcon color={comment.resolvedAt ? 'disabled' : 'warning'} /> : null}
              </ListItemIcon>
              <ListItemText
                primary={comment.comment}
                secondary={
                  <>
                    {comment.createdBy
                      ? translate('app.comment.written_by', { date: when(comment.createdAt), name: comment.createdBy })
                      : when(comment.createdAt)}
                    {comment.resolvedAt && (
                      <Chip
                        component="span"
                        size="small"
                        sx={{ ml: 1 }}
                        label={translate('app.comment.resolved_at', { date: when(comment.resolvedAt) })}
                      />
                    )}
                  </>
                }
              />
            </ListItem>
          ))}
        </List>
        <Form key={formKey} onSubmit={add} noValidate>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2 }}>
            <TextInput
              source="comment"
              label="app.comment.text"
              multiline
              validate={required()}
              sx={{ flex: '1 1 20rem' }}
            />
            <BooleanInput source="warning" label="app.comment.warning" />
            <Button type="submit" variant="outlined" id="comment-add">
              {translate('app.comment.add')}
            </Button>
          </Box>
        </Form>
      </CardContent>
      <Confirm
        isOpen={!!removing}
        title={removing?.warning ? 'app.comment.delete_warning_title' : 'app.comment.delete_title'}
        content="app.comment.delete_content"
        translateOptions={{ comment: removing?.comment ?? '' }}
        onConfirm={() => void remove()}
        onClose={() => setRemoving(null)}
      />
    </Card>
  );
}
