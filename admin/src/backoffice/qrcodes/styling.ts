import type { Options } from 'qr-code-styling';
import type { DataProvider, RaRecord } from 'react-admin';

let library: Promise<typeof import('qr-code-styling')> | undefined;

/** qr-code-styling, fetched on first use: the back office's first screen must not carry it. */
export const loadStyling = () => (library ??= import('qr-code-styling'));

export type CodeFormat = 'png' | 'svg';

/** One code as a file: PNG drawn on a canvas, or SVG text. */
export async function codeBlob(options: Options, format: CodeFormat): Promise<Blob> {
  const { default: Styling } = await loadStyling();
  const data = await new Styling(options).getRawData(format);
  if (!(data instanceof Blob)) throw new Error('the browser could not draw the code');
  return data;
}

export interface BadgeVendor extends RaRecord {
  licenseId: string;
  firstName: string;
  lastName: string;
}

export const codeFileName = (vendor: Pick<BadgeVendor, 'licenseId'>, format: CodeFormat) =>
  `qr-${vendor.licenseId}.${format}`;

// DEMO-2 before DEMO-10, as people count.
const byLicenceId = (a: BadgeVendor, b: BadgeVendor) =>
  a.licenseId.localeCompare(b.licenseId, undefined, { numeric: true });

/** The vendors chosen in the vendor list (its bulk action), by licence ID; deactivated ones too, as chosen. */
export async function chosenVendors(dataProvider: DataProvider, ids: string[]): Promise<BadgeVendor[]> {
  const { data } = await dataProvider.getMany<BadgeVendor>('vendorsummary', { ids });
  return data.sort(byLicenceId);
}

/** Every active vendor by licence ID, page by page (the API gives at most 1000 at once). */
export async function activeVendors(dataProvider: DataProvider): Promise<BadgeVendor[]> {
  const perPage = 1000;
  const vendors: BadgeVendor[] = [];
  for (let page = 1; ; page++) {
    const { data, total } = await dataProvider.getList<BadgeVendor>('vendorsummary', {
      pagination: { page, perPage },
      sort: { field: 'licenseId', order: 'ASC' },
      filter: { isDisabled: false },
    });
    vendors.push(...data);
    if (data.length < perPage || vendors.length >= (total ?? 0)) return vendors.sort(byLicenceId);
  }
}
