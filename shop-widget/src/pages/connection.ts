// The pages after the card page never leave a paid customer on an error because the connection
// dropped: a call that got no answer about the order is asked again, as docs/shop.md promises.

/**
 * No answer about the order: the network, a server restarting behind its proxy, or any other fault of
 * the server (5xx). None of them says anything about the payment.
 */
export const unreachable = (status: number) => status === 0 || status >= 500;

/** After the n-th failure in a row: 1, 2, 4, then every 5 s. */
export const retryDelay = (failures: number) => Math.min(5000, 1000 * 2 ** Math.max(0, failures - 1));
