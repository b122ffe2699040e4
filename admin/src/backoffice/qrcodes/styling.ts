import type { DataProvider, RaRecord } from 'react-admin';

export interface BadgeVendor extends RaRecord {
  licenseId: string;
  firstName: string;
  lastName: string;
}

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
