/**
 * The local Stripe sandbox's fixed test-mode credentials. They only ever open the sandbox on this
 * server (it is mounted only when no STRIPE_SECRET_KEY is configured), so they are not secrets.
 */
export const SANDBOX_SECRET_KEY = 'sk_test_sandbox_local';
export const SANDBOX_WEBHOOK_SECRET = 'whsec_sandbox_local';
