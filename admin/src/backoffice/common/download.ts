import { useDataProvider, useNotify } from 'react-admin';
import { offerUrl } from '../../shared/save-file.ts';
import type { ShopDataProvider } from '../dataProvider.ts';

/** A list's filter as the API's `filter` parameter, for the calls react-admin does not make itself. */
export const filterParam = (filter: Record<string, unknown>) => `filter=${encodeURIComponent(JSON.stringify(filter))}`;

/**
 * Downloads a file of the API behind the back office's login (a CSV): fetched with the token, saved
 * under `filename`. A failure is said in the notification.
 */
export function useDownload(): (path: string, filename: string) => Promise<void> {
  const dataProvider = useDataProvider<ShopDataProvider>();
  const notify = useNotify();
  return async (path, filename) => {
    try {
      offerUrl(await dataProvider.fileUrl(path), filename);
    } catch (error) {
      notify('app.books.download_failed', { type: 'error', messageArgs: { message: (error as Error).message } });
    }
  };
}

/** "buchungen-2026-11-01-2026-11-30.csv" for a period, "buchungen.csv" without one. */
export function periodFilename(name: string, filter: { from?: string; to?: string }): string {
  return `${[name, filter.from, filter.to].filter(Boolean).join('-')}.csv`;
}
