import { useDataProvider } from 'react-admin';

/**
 * The data provider's own calls (admin/src/backoffice/dataProvider.ts), typed: react-admin's
 * DataProvider types every method beyond its own as `any`.
 */
export interface ApiCalls {
  /** Any call of our API with the login; answers the JSON body, errors carry the API's message. */
  call(path: string, options?: { method?: string; body?: unknown }): Promise<unknown>;
  /** A stored file or printable page behind the login, as a URL this page can open. */
  fileUrl(url: string): Promise<string>;
}

export function useApiCalls(): ApiCalls {
  return useDataProvider() as unknown as ApiCalls;
}
