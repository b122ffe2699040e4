// The addresses of the money screens (below /backoffice) that other screens link to.
export const creditPaths = {
  list: '/credits',
  payout: (vendorId: number | string) => `/credits/payout/${vendorId}`,
  /** The accounting screen narrowed to one vendor: their account statement. */
  statement: (licenseId: string) => `/payments?filter=${encodeURIComponent(JSON.stringify({ vendor: licenseId }))}`,
};
