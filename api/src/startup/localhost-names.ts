import dns from 'node:dns';

// Every name under .localhost is this machine (RFC 6761, 6.3: resolvers should answer the loopback
// address for them), and browsers resolve them so themselves; the system's resolver often does not.
// A paper at http://a.localhost:3000 (PUBLIC_URL, or a platform's paper on this machine) calls itself
// at that address: the Stripe SDK the local sandbox, the sandbox the webhook route. Without this those
// calls fail in the server while the browser reaches the same address.

let resolving = false;

/** From now on this process resolves every name under .localhost to 127.0.0.1, as browsers do. */
export function resolveLocalhostNames(): void {
  if (resolving) return;
  resolving = true;
  const systemLookup = dns.lookup;
  const lookup = (hostname: string, ...rest: unknown[]) =>
    (systemLookup as (...args: unknown[]) => void).call(
      dns,
      hostname.toLowerCase().endsWith('.localhost') ? '127.0.0.1' : hostname,
      ...rest,
    );
  dns.lookup = lookup as typeof dns.lookup;
}
