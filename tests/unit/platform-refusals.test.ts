import assert from 'node:assert/strict';
import { loadConfig } from '../../api/src/foundations/config.ts';
import { sealFiscal, type Paper, type PaperFiscal } from '../../api/src/platform/papers.ts';
import { paperConfig } from '../../api/src/platform/serve.ts';
import { configRefusals, platformRefusals } from '../../api/src/startup/safety.ts';

// Many papers in one process refuse what would be one for all of them: their data outside PostgreSQL,
// one login provider, one signing account. Each paper signs with an account of its own.

const platform = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
  PLATFORM_DOMAIN: 'papers.example.org',
  PLATFORM_SECRET: 'a long random secret of the platform',
};

describe('a start serving many papers (PLATFORM_DOMAIN)', () => {
  it('starts with PostgreSQL, its secret and the embedded logins, in live signing too', () => {
    assert.deepEqual(platformRefusals(loadConfig(platform)), []);
    assert.deepEqual(platformRefusals(loadConfig({ ...platform, FISCAL_MODE: 'live' })), []);
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

  it("refuses the environment's fiskaly account, in test mode too, naming each variable and the command for a paper's own", () => {
    for (const mode of ['live', 'test']) {
      const refusals = platformRefusals(
        loadConfig({
          ...platform,
          FISCAL_MODE: mode,
          FISCAL_API_KEY: 'key',
          FISCAL_API_SECRET: 'secret',
          FISCAL_TSS_ID: 'tss',
          FISCAL_CLIENT_ID: 'client',
        }),
      );
      assert.equal(refusals.length, 1);
      assert.match(
        refusals[0],
        /^FISCAL_API_KEY, FISCAL_API_SECRET, FISCAL_TSS_ID, FISCAL_CLIENT_ID are set, but many papers cannot share one signing account: .* npm run paper -- fiscal <slug> --api-key … --api-secret … --tss … --client …/,
      );
    }
    const [alone] = platformRefusals(loadConfig({ ...platform, FISCAL_API_KEY: 'key' }));
    assert.match(alone ?? '', /^FISCAL_API_KEY is set, but many papers cannot share one signing account/);
    const [secret] = platformRefusals(loadConfig({ ...platform, FISCAL_SECRET_KEY: 'one for all' }));
    assert.match(secret ?? '', /^FISCAL_SECRET_KEY is set/);
  });

  it("signs a paper with its own sealed credentials, never the environment's; live without its own, that paper alone is refused", () => {
    // What the platform's start refuses (the FISCAL_ credentials) a paper's configuration never holds.
    const env = {
      ...platform,
      STRIPE_SANDBOX: 'true',
      FISCAL_MODE: 'live',
      FISCAL_API_KEY: 'the platform’s',
      FISCAL_TSS_ID: 'platform-tss',
    };
    const base = loadConfig(env);
    const paper = (slug: string, country: Paper['country'], fiscal?: PaperFiscal): Paper => ({
      slug,
      hosts: [`${slug}.example.org`],
      currency: 'EUR',
      country,
      timeZone: 'Europe/Berlin',
      status: 'active',
      stripeAccount: null,
      fiscal: fiscal ? sealFiscal(platform.PLATFORM_SECRET, slug, fiscal) : null,
      createdAt: new Date(),
    });
    const own: PaperFiscal = {
      apiKey: 'key of a',
      apiSecret: 'secret of a',
      tssId: '6f1c4c1e-8d57-4a3c-9f0b-2a3b4c5d6e7f',
      clientId: '0b9ac2e5-1b4e-4a53-8d3e-2f6c1c9a7f10',
    };
    const a = paperConfig(env, base, paper('a', 'DE', own));
    assert.deepEqual(
      [a.fiscal.mode, a.fiscal.apiKey, a.fiscal.apiSecret, a.fiscal.tssId, a.fiscal.clientId],
      ['live', 'key of a', 'secret of a', own.tssId, own.clientId],
    );
    assert.deepEqual(configRefusals(a, 'a'), []);

    const b = paperConfig(env, base, paper('b', 'AT'));
    assert.deepEqual([b.fiscal.country, b.fiscal.apiKey, b.fiscal.tssId], ['AT', undefined, undefined]);
    const [refusal, ...more] = configRefusals(b, 'b');
    assert.deepEqual(more, []);
    assert.match(
      refusal ?? '',
      /^FISCAL_MODE is live, but the paper b has no signing credentials of its own, so it is not served: .* npm run paper -- fiscal b --api-key/,
    );
    // A country without a signing law signs nothing, whatever FISCAL_MODE says for the others.
    assert.equal(paperConfig(env, base, paper('c', 'CH')).fiscal.mode, 'off');
    // Sealed for a: the same sealed value under another paper's name does not open.
    const moved = { ...paper('d', 'DE'), fiscal: paper('a', 'DE', own).fiscal };
    assert.throws(() => paperConfig(env, base, moved), /do not open with this PLATFORM_SECRET/);
  });
});
