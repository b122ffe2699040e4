/** The caller, as established from a verified access token. */
export interface User {
  sub: string;
  username: string;
  email?: string;
  /** Group names without Keycloak's leading slash: 'backoffice', 'vendor'. */
  groups: string[];
}
