// The addresses of the counter screens (below /backoffice).
export const counterPaths = {
  search: '/counter',
  visit: (licenseId: string) => `/counter/${encodeURIComponent(licenseId)}`,
  tills: '/tills',
  elster: '/tills/elster',
};
