/** Paths answered by machines for machines (API, login service, Stripe sandbox): never the shop's pages. */
const machinePrefixes = ['/api', '/oidc', '/v1', '/stripe-sandbox'];

export function isMachinePath(path: string): boolean {
  return machinePrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
