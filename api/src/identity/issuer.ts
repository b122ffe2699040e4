import type { Config } from '../foundations/config.ts';

/** Path of the embedded OpenID provider below the public URL. */
export const providerPath = '/oidc';

/** Who issues access tokens: the configured external provider, else the embedded one. */
export const issuerUrl = (config: Config): string => config.oidc.issuer ?? `${config.publicUrl}${providerPath}`;

/** Our API as a resource indicator (RFC 8707) at the embedded provider: always an absolute URL. */
export const apiResource = (config: Config): string => `${config.publicUrl}/api`;

/** The audience of access tokens for our API: as configured, else the resource's URL. */
export const apiAudience = (config: Config): string => config.oidc.audience ?? apiResource(config);
