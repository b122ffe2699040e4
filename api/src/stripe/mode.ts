import { isLocalStart, type Config } from '../foundations/config.ts';

// Test mode or live mode: what the configured key can move. Only a live key moves real money; the
// sandbox and `sk_test_`/`rk_test_` keys are test mode, whose test cards must never credit a vendor
// behind a public address unless STRIPE_SANDBOX=true says so on purpose.

/** No key: the local sandbox answers the SDK. */
export const usesSandbox = (config: Config) => !config.stripe.secretKey;

/** Whether the configured key is one of Stripe's live keys (`sk_live_…`, `rk_live_…`). */
export const isLiveKey = (config: Config) => /^(sk|rk)_live_/.test(config.stripe.secretKey ?? '');

/** Test mode: the sandbox or a test key. Pages show a ribbon when it was chosen with STRIPE_SANDBOX=true. */
export const isTestMode = (config: Config) => !isLiveKey(config);

/** Whether the pages carry the test-mode ribbon. */
export const showsTestRibbon = (config: Config) => Boolean(config.stripe.sandbox) && isTestMode(config);

/**
 * Test mode chosen on purpose where others reach the server: its card credit is test money, which
 * the ledger never pays in cash (ledger/test-credit.ts).
 */
export const creditIsTestMoney = (config: Config) => showsTestRibbon(config) && !isLocalStart(config);
