/** The caller, as established from a verified access token. */
export interface User {
  sub: string;
  username: string;
  email?: string;
  /** Group names without Keycloak's leading slash: 'backoffice', 'vendor'. */
  groups: string[];
  /** With an external provider: the configured claim (OIDC_VENDOR_CLAIM) that names the vendor. */
  vendorClaim?: string;
  /** Only with the embedded provider: the caller's account … */
  accountId?: number;
  /** … and the vendor that account belongs to (null for staff). */
  vendorId?: number | null;
}
