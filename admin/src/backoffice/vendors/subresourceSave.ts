import type { HttpError } from 'react-admin';

/**
 * Runs a save of a location or comment from a react-admin Form: undefined when it worked, else the
 * server's field errors for the form to show at its fields (the dataProvider adds the message as
 * root.serverError, so the notification says it too).
 */
export async function saveOrFieldErrors(save: () => Promise<unknown>): Promise<Record<string, unknown> | undefined> {
  try {
    await save();
    return undefined;
  } catch (error) {
    const body = (error as HttpError).body as { errors?: Record<string, unknown> } | undefined;
    const errors = body?.errors;
    return errors ?? { root: { serverError: (error as Error).message } };
  }
}
