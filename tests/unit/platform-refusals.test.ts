import assert from 'node:assert/strict';
import { loadConfig } from '../../api/src/foundations/config.ts';
import { platformRefusals } from '../../api/src/startup/safety.ts';

// Many papers in one process refuse what would be one for all of them: their data outside PostgreSQL,
// one login provider, one signing account.

const platform = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
  PLATFORM_DOMAIN: 'papers.example.org',
  PLATFORM_SECRET: 'a long random secret of the platform',
};

describe('a start serving many papers (PLATFORM_DOMAIN)', () => {
  it('starts with PostgreSQL, its secret, the embedded logins and no live signing', () => {
    assert.deepEqual(platformRefusals(loadConfig(platform)), []);
  });

  it('refuses the embedded database and a missing secret, naming the variables', () => {
    const [refusal] = platformRefusals(loadConfig({ ...platform, DATABASE_URL: '', PLATFORM_SECRET: '' }));
    assert.match(refusal ?? '', /set DATABASE_URL .* and PLATFORM_SECRET/);
  });

  it('refuses one outside login provider for every paper', () => {
    const refusals = platformRefusals(loadConfig({ ...platform, OIDC_ISSUER: 'https://login.example.org/realms/x' }));
    assert.equal(refusals.length, 1);
    assert.match(refusals[0], /^OIDC_ISSUER is set, but many papers cannot share one login provider/);
  });

  it("refuses live signing with one fiskaly account for every paper's tills", () => {
    const refusals = platformRefusals(
      loadConfig({
        ...platform,
        FISCAL_MODE: 'live',
        FISCAL_API_KEY: 'key',
        FISCAL_API_SECRET: 'secret',
        FISCAL_TSS_ID: 'tss',
        FISCAL_CLIENT_ID: 'client',
      }),
    );
    assert.equal(refusals.length, 1);
    assert.match(refusals[0], /^FISCAL_MODE is live, but many papers cannot share one signing account/);
  });
});
