// The specification's addresses of the vendor screens (below /backoffice).
export const vendorPaths = {
  list: '/vendorsummary',
  create: '/newvendor',
  import: '/vendorsummary/import',
  show: (id: number | string) => `/userprofile/${id}`,
  edit: (id: number | string) => `/userprofile/${id}/update`,
};
