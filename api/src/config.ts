import path from 'node:path';

/** Everything the process reads from its environment, typed, with the embedded defaults. */
export interface Config {
  port: number;
  publicUrl: string;
  /** PostgreSQL URL; when absent the embedded PGlite database in `dataDir` is used. */
  databaseUrl?: string;
  dataDir: string;
  oidc: {
    /** Issuer whose discovery document and JWKS verify access tokens. */
    issuer?: string;
    audience?: string;
    clientId: string;
    realm?: string;
    scopes: string;
  };
  embedOrigins: string[];
  logLevel: 'silent' | 'info';
  /** Seed the demo newspaper into an empty database. */
  seedDemo: boolean;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    port,
    publicUrl,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.DATA_DIR ?? 'data'),
    oidc: {
      issuer: env.OIDC_ISSUER?.replace(/\/+$/, '') || undefined,
      audience: env.OIDC_AUDIENCE || undefined,
      clientId: env.OIDC_CLIENT_ID ?? 'backoffice',
      realm: env.OIDC_REALM || undefined,
      scopes: env.OIDC_SCOPES ?? 'openid profile email offline_access',
    },
    embedOrigins: (env.EMBED_ORIGINS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    logLevel: env.LOG_LEVEL === 'silent' ? 'silent' : 'info',
    seedDemo: env.SEED_DEMO !== 'false',
  };
}
