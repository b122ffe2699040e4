/** The caller, as established from a verified access token. */
export interface User {
  sub: string;
  username: string;
  email?: string;
  /** Group names without Keycloak's leading slash: 'backoffice', 'vendor'. */
  groups: string[];
  /**
   * With an external provider: the licence id in the configured claim (OIDC_VENDOR_CLAIM), which
   * staff set on the login and its owner cannot change (a read-only user attribute).
   */
  vendorClaim?: string;
  /**
   * With an external provider, only when the newspaper links vendors by e-mail (OIDC_VENDOR_BY_EMAIL)
   * and the provider says the address is verified: the e-mail address, matched with the vendor's.
   */
  vendorEmail?: string;
  /** Only with the embedded provider: the caller's account … */
  accountId?: number;
  /** … and the vendor that account belongs to (null for staff). */
  vendorId?: number | null;
}
