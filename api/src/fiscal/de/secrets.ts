import { deriveKey } from '../../foundations/sealing.ts';

// The TSS's admin PUK and PIN are sealed (foundations/sealing.ts) with the TSS's id as the context,
// so a value cannot be moved to another TSS or field.

/** The key for sealing from the configured secret (FISCAL_SECRET_KEY, else FISCAL_API_SECRET). */
export const sealingKey = (secret: string): Buffer =>
  deriveKey(secret, 'street-paper-shop fiscal', 'tss admin credentials');
