import simpleRestProvider from 'ra-data-simple-rest';
import {
  addRefreshAuthToDataProvider,
  fetchUtils,
  HttpError,
  type CreateParams,
  type CreateResult,
  type DataProvider,
  type GetOneParams,
  type GetOneResult,
  type Identifier,
  type RaRecord,
  type UpdateParams,
  type UpdateResult,
} from 'react-admin';
import type { Login } from '../auth/login.ts';
import { storedLocale } from '../shared/locale.ts';
import type { PublicSettings } from '../shared/settings.ts';

/** Screens are named after the specification's routes; the API after what it holds. */
const apiPaths: Record<string, string> = { vendorsummary: 'vendors', productsettings: 'items' };
const apiPath = (resource: string) => apiPaths[resource] ?? resource;
/** The back office's item list includes disabled items and licence items; the shop's does not. */
const listPath = (resource: string) => (resource === 'productsettings' ? 'items/backoffice' : apiPath(resource));
/** Locations and comments live below their vendor (vendors/3/locations) and change by PATCH. */
/** The DATEV export's settings: one record (id 1) of their own, apart from the public settings. */
const datevSettingsPath = '/api/accounting/datev/settings';

const isVendorPart = (resource: string) => /^vendors\/\d+\/(locations|comments)$/.test(resource);

/**
 * The API's field errors as react-admin's forms take them: each at its field, and the message in
 * `root.serverError` so the notification says what the server said instead of a generic text.
 */
function withFormErrors(error: unknown): unknown {
  if (!(error instanceof HttpError)) return error;
  const body = error.body as { message?: string; errors?: Record<string, string> } | undefined;
  if (!body?.errors) return error;
  const { _: general, ...fields } = body.errors;
  const message = body.message ?? general ?? error.message;
  return new HttpError(message, error.status, { ...body, errors: { ...fields, root: { serverError: message } } });
}

/** Fields the item form sends; the answer's extra fields (id, image URL, pdf size, …) stay out. */
const itemFields = [
  'name',
  'description',
  'nameEn',
  'descriptionEn',
  'price',
  'counterPrice',
  'vatRate',
  'measure',
  'order',
  'color',
  'fontColor',
  'maxOrderAmount',
  'isMainProduct',
  'takesOverTransactionCosts',
  'isLicenseItem',
  'licenseItem',
  'licenseGroup',
  'isPdfItem',
  'disabled',
];
const settingsFields = [
  'newspaperName',
  'newspaperAddress',
  'companyStreet',
  'companyPostcode',
  'companyTown',
  'companyCountry',
  'taxNumber',
  'vatId',
  'vatRate',
  'color',
  'fontColor',
  'agbUrl',
  'maintainanceModeHelpUrl',
  'vendorNotFoundHelpUrl',
  'qrCodeUrl',
  'vendorEmailPostfix',
  'webshopIsClosed',
  'mapCenterLat',
  'mapCenterLong',
  'useVendorLicenseIdInShop',
  'useTipInsteadOfDonation',
  'orgaCoversTransactionCosts',
  'maxOrderAmount',
  'germanVariant',
  'metaDescription',
  'mainItem',
  'qrCodeEnableLogo',
  'qrCodeSettings',
];

/** An upload field as react-admin's file inputs hold it: a new file, the stored one, or removed (null). */
type FileValue = { rawFile?: File; src?: string } | string | null | undefined;

/**
 * A multipart form for PUT/POST: the given plain fields as text (null as empty text, which the API
 * reads as "none"), a new file as the file, a removed file as empty text; an unchanged file is
 * left out, so the stored one stays.
 */
function multipart(
  data: Record<string, unknown>,
  fields: string[],
  fileFields: string[],
  previous?: Record<string, unknown>,
): FormData {
  const form = new FormData();
  for (const field of fields) {
    const value = data[field];
    if (value === undefined) continue;
    form.append(
      field,
      value === null
        ? ''
        : typeof value === 'object'
          ? JSON.stringify(value)
          : (value as string | number | boolean).toString(),
    );
  }
  for (const field of fileFields) {
    const value = data[field] as FileValue;
    if (value && typeof value === 'object' && value.rawFile instanceof File) form.append(field, value.rawFile);
    else if (value == null && previous?.[field]) form.append(field, '');
  }
  return form;
}

/** The settings as a form record: one record with id 1, the main item by its id, the QR logo as its upload field. */
export function settingsRecord(
  settings: PublicSettings,
): RaRecord & PublicSettings & { mainItemId: number | null; qrCodeLogo: string | null } {
  return { ...settings, id: 1, mainItemId: settings.mainItem?.id ?? null, qrCodeLogo: settings.qrCodeLogoImgUrl };
}

/** A record as a form sends it to update: its id, and fields whose type the code below does not assume. */
type FormRecord = { id: Identifier } & Record<string, unknown>;

/** Our own calls beside react-admin's, typed so that the pages get no `any` from them. */
export interface ShopDataProvider extends DataProvider {
  saveStyleCss(css: string): Promise<{ styleRevision: number }>;
  call(path: string, options?: { method?: string; body?: unknown }): Promise<unknown>;
  fileUrl(url: string): Promise<string>;
}

export function createDataProvider(login: Login): DataProvider {
  const http = async (url: string, options: fetchUtils.Options = {}) => {
    const user = await login.user();
    // The API's messages come in the back office's language, whatever the browser's is.
    // Headers of our own replace react-admin's default, so its Accept is named here too.
    const headers = new Headers(options.headers ?? { Accept: 'application/json' });
    headers.set('Accept-Language', storedLocale());
    try {
      return await fetchUtils.fetchJson(url, {
        ...options,
        headers,
        user: { authenticated: !!user, token: user ? `Bearer ${user.access_token}` : undefined },
      });
    } catch (error) {
      throw withFormErrors(error);
    }
  };
  const base = simpleRestProvider('/api', http);
  /** An answer of our own calls as the type the caller knows: where their untyped JSON enters. */
  const answer = async <T>(url: string, options?: fetchUtils.Options): Promise<T> =>
    (await http(url, options)).json as T;

  const provider: DataProvider = {
    getList: (resource, params) => base.getList(listPath(resource), params),
    getOne: async <R extends RaRecord>(resource: string, params: GetOneParams<R>): Promise<GetOneResult<R>> => {
      if (resource === 'settings')
        return { data: settingsRecord(await answer<PublicSettings>('/api/settings')) as unknown as R };
      if (resource === 'datevsettings') return { data: { ...(await answer<R>(datevSettingsPath)), id: 1 } };
      return base.getOne(apiPath(resource), params);
    },
    getMany: (resource, params) => base.getMany(listPath(resource), params),
    getManyReference: (resource, params) => base.getManyReference(listPath(resource), params),
    create: async <R extends RaRecord>(
      resource: string,
      params: CreateParams<Record<string, unknown>>,
    ): Promise<CreateResult<R>> => {
      if (resource === 'productsettings') {
        return {
          data: await answer<R>('/api/items', {
            method: 'POST',
            body: multipart(params.data, itemFields, ['image', 'pdf']),
          }),
        };
      }
      return base.create(apiPath(resource), params);
    },
    update: async <R extends RaRecord>(
      resource: string,
      params: UpdateParams<FormRecord>,
    ): Promise<UpdateResult<R>> => {
      if (resource === 'productsettings') {
        const body = multipart(params.data, itemFields, ['image', 'pdf'], params.previousData);
        return { data: await answer<R>(`/api/items/${params.id}`, { method: 'PUT', body }) };
      }
      if (resource === 'settings') {
        const data = { ...params.data, mainItem: params.data.mainItemId };
        const body = multipart(data, settingsFields, ['logo', 'favicon', 'qrCodeLogo'], params.previousData);
        return {
          data: settingsRecord(await answer<PublicSettings>('/api/settings', { method: 'PUT', body })) as unknown as R,
        };
      }
      if (resource === 'datevsettings') {
        const { id: _id, chartDefaults: _defaults, ...settings } = params.data;
        const saved = await answer<R>(datevSettingsPath, { method: 'PUT', body: JSON.stringify(settings) });
        return { data: { ...saved, id: 1 } };
      }
      if (isVendorPart(resource)) {
        return {
          data: await answer<R>(`/api/${resource}/${params.id}`, {
            method: 'PATCH',
            body: JSON.stringify(params.data),
          }),
        };
      }
      return base.update(apiPath(resource), params);
    },
    updateMany: (resource, params) => base.updateMany(apiPath(resource), params),
    delete: (resource, params) => base.delete(apiPath(resource), params),
    deleteMany: (resource, params) => base.deleteMany(apiPath(resource), params),
    /** The shop's custom CSS: saved as text/css, answered with its new revision. */
    saveStyleCss: async (css: string): Promise<{ styleRevision: number }> => {
      return answer<{ styleRevision: number }>('/api/settings/css', {
        method: 'PUT',
        body: css,
        headers: new Headers({ 'Content-Type': 'text/css' }),
      });
    },
    /** Any other call of our API with the login (an action such as "check with Stripe now"); errors carry the API's message. */
    call: async (
      path: string,
      { method = 'GET', body }: { method?: string; body?: unknown } = {},
    ): Promise<unknown> => {
      return answer<unknown>(path, { method, body: body === undefined ? undefined : JSON.stringify(body) });
    },
    /** A stored file behind the back office's login (an item's PDF), as a URL this page can open. */
    fileUrl: async (url: string): Promise<string> => {
      const user = await login.user();
      const response = await fetch(url, {
        headers: {
          'Accept-Language': storedLocale(),
          ...(user ? { Authorization: `Bearer ${user.access_token}` } : {}),
        },
      });
      if (!response.ok) {
        // A refusal (a period the export cannot take) says why in the API's JSON.
        const refusal = (await response.json().catch(() => undefined)) as { message?: unknown } | undefined;
        const reason = typeof refusal?.message === 'string' ? refusal.message : undefined;
        throw new HttpError(reason ?? `The file could not be loaded (${response.status}).`, response.status);
      }
      return URL.createObjectURL(await response.blob());
    },
  };
  // Before each call: a token about to expire is renewed first (the login shares one renewal at a time).
  return addRefreshAuthToDataProvider(provider, async () => {
    await login.user();
  });
}
