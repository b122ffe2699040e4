import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { isBuiltin } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CORE_SCHEMA, load, mergeTag } from 'js-yaml';
import supertest from 'supertest';
import { buildApp } from '../../api/src/app.ts';
import { loadConfig, type Config } from '../../api/src/foundations/config.ts';
import { createDb, migrate, type Db } from '../../api/src/db/connection.ts';
import { configRefusals } from '../../api/src/startup/safety.ts';
import { Stripe, STRIPE_API_VERSION } from '../../api/src/stripe/adapter.ts';
import { handledEvents } from '../../api/src/stripe/events.ts';
import { DEMO_VENDOR_EMAIL_POSTFIX } from '../../seeds/demo.ts';
import { ensureBuild, migratedCopy, removeDir } from '../e2e/server.ts';

// What the deployment files (Dockerfile, compose.yaml, deploy/**) say about the app must stay true
// while the app changes. No Docker engine needed: the files are read and held against the code.

const repo = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(repo, file), 'utf8');
/** The Dockerfile with its continued lines joined, one instruction a line. */
const dockerfile = () => read('Dockerfile').replace(/\\\n\s*/g, ' ');

interface ComposeService {
  environment?: Record<string, string>;
  command?: string[];
  volumes?: string[];
  networks?: string[] | Record<string, { aliases?: string[]; ipv4_address?: string }>;
}
const compose = load(read('compose.yaml'), { schema: CORE_SCHEMA.withTags(mergeTag) }) as {
  services: Record<string, ComposeService>;
};

/** Compose's interpolation with the variables of a .env: defaults used for the rest, required values filled in. */
const interpolate = (value: string, dotEnv: Record<string, string> = {}) =>
  value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, kind?: string, text?: string) =>
    dotEnv[name] !== undefined
      ? dotEnv[name]
      : kind === '-'
        ? (text ?? '')
        : kind === '?'
          ? `example-${name.toLowerCase()}`
          : '',
  );

const appServices = Object.entries(compose.services).filter(([, service]) => service.environment?.DATABASE_URL);
const environmentOf = (service: ComposeService, dotEnv: Record<string, string> = {}) =>
  Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([name, value]) => [name, interpolate(String(value), dotEnv)]),
  );
const appEnvironment = environmentOf(appServices[0][1]);

/** The names a service is reached by inside the compose network. */
const aliasesOf = (name: string) => {
  const networks = compose.services[name].networks;
  return [
    name,
    ...(Array.isArray(networks) ? [] : Object.values(networks ?? {}).flatMap((network) => network.aliases ?? [])),
  ];
};
const serviceServingHost = (host: string) =>
  Object.keys(compose.services).find((name) => aliasesOf(name).includes(host));

interface Mapper {
  protocolMapper: string;
  config: Record<string, string>;
}
interface RealmClient {
  clientId: string;
  publicClient: boolean;
  standardFlowEnabled: boolean;
  implicitFlowEnabled: boolean;
  directAccessGrantsEnabled: boolean;
  redirectUris: string[];
  webOrigins: string[];
  attributes: Record<string, string>;
  protocolMappers: Mapper[];
}
interface Realm {
  realm: string;
  groups: { name: string }[];
  clients: RealmClient[];
  users: {
    username: string;
    email: string;
    groups: string[];
    credentials: { temporary: boolean }[];
    attributes?: Record<string, string[]>;
  }[];
  components?: Record<string, { providerId: string; config: Record<string, string[]> }[]>;
}
const realm = JSON.parse(read('deploy/keycloak/realm-export.json')) as Realm;

describe('deployment files', () => {
  describe('compose.yaml', () => {
    it('runs two app processes with the same settings, each one the server reads and accepts', () => {
      assert.deepEqual(
        appServices.map(([name]) => name),
        ['app1', 'app2'],
      );
      assert.deepEqual(environmentOf(appServices[1][1]), appEnvironment, 'app2 is configured like app1');
      const names = new Set<string>();
      const recording = new Proxy(appEnvironment, {
        get: (env, name) => {
          if (typeof name === 'string') names.add(name);
          return env[name as string];
        },
      });
      loadConfig(recording); // throws on a value the server refuses (a TRUST_PROXY typo, a bad origin)
      assert.deepEqual(
        Object.keys(appEnvironment).filter((name) => !names.has(name)),
        [],
        'variables api/src/foundations/config.ts never reads',
      );
    });

    it('points the app at services of the same file, under the addresses browsers use too', () => {
      const config = loadConfig(appEnvironment);
      const database = new URL(config.databaseUrl!);
      assert.equal(serviceServingHost(database.hostname), 'postgres');
      assert.equal(compose.services.postgres.environment?.POSTGRES_DB, database.pathname.slice(1));
      // The browser is sent to PUBLIC_URL and OIDC_ISSUER; the containers call them too (sandbox,
      // webhooks, discovery), so both names must lead to the right service inside the network.
      assert.equal(serviceServingHost(new URL(config.publicUrl).hostname), 'balancer');
      const issuer = new URL(config.oidc.issuer!);
      assert.equal(serviceServingHost(issuer.hostname), 'keycloak');
      // Keycloak writes its hostname into every token's issuer, which must be OIDC_ISSUER exactly.
      assert.equal(`${compose.services.keycloak.environment?.KC_HOSTNAME}/realms/${realm.realm}`, config.oidc.issuer);
      assert.equal(config.oidc.realm, realm.realm);
      assert.ok(
        compose.services.keycloak.volumes?.some((volume) =>
          volume.startsWith('./deploy/keycloak/realm-export.json:/opt/keycloak/data/import/'),
        ),
        'the realm file is imported',
      );
      assert.ok(compose.services.keycloak.command?.includes('--import-realm'));
    });

    it('defaults to real mode: without a Stripe key it refuses, naming it; test mode and the demo only on purpose', () => {
      for (const name of ['STRIPE_SANDBOX', 'SEED_DEMO']) {
        const raw = String(appServices[0][1].environment?.[name]);
        assert.doesNotMatch(raw, /:-true\}/, `${name} has no default of true`);
        assert.equal(appEnvironment[name], 'false');
      }
      assert.match(configRefusals(loadConfig(appEnvironment)).join('\n'), /STRIPE_SECRET_KEY is not set/);
      // What the comment at the top of compose.yaml appends to .env to try it in test mode:
      const dotEnv = Object.fromEntries(
        [...read('compose.yaml').matchAll(/printf '((?:\w+=\w+\\n)+)' >> \.env/g)]
          .flatMap((m) => m[1].split('\\n'))
          .filter(Boolean)
          .map((pair) => pair.split('=')),
      );
      assert.deepEqual(dotEnv, { STRIPE_SANDBOX: 'true', SEED_DEMO: 'true' });
      assert.deepEqual(configRefusals(loadConfig(environmentOf(appServices[0][1], dotEnv))), []);
    });

    it('names in docs/production.md exactly the Stripe events the webhook handles, and the pinned API version', () => {
      const docs = read('docs/production.md');
      const section = /\*\*Stripe's webhook endpoint\*\*[\s\S]*?\n\n/.exec(docs)?.[0] ?? '';
      const named = [...section.matchAll(/`((?:checkout|charge|refund|radar|payout)\.[a-z_.]+)`/g)].map((m) => m[1]);
      assert.deepEqual([...named].sort(), [...handledEvents].sort());
      assert.ok(section.includes(STRIPE_API_VERSION));
      assert.equal(STRIPE_API_VERSION, Stripe.API_VERSION, 'the version the installed SDK was built for');
      assert.equal(JSON.parse(read('package.json')).dependencies.stripe, '23.1.0', 'an exact version');
    });

    it('trusts forwarding headers from the balancer only', () => {
      const balancer = compose.services.balancer.networks as Record<string, { ipv4_address?: string }>;
      const balancerAddress = Object.values(balancer)[0].ipv4_address;
      assert.ok(balancerAddress, 'the balancer has a fixed address');
      assert.deepEqual(loadConfig(appEnvironment).trustProxy, [balancerAddress]);
    });
  });

  describe('the Keycloak realm', () => {
    const config = loadConfig(appEnvironment);
    const client = realm.clients.find((c) => c.clientId === config.oidc.clientId);
    const mapper = (type: string) => client?.protocolMappers.find((m) => m.protocolMapper === type);

    it('has the public client of OIDC_CLIENT_ID: code flow with PKCE S256 only', () => {
      assert.ok(client, `a client "${config.oidc.clientId}"`);
      assert.equal(client.publicClient, true, 'the browser holds no secret');
      assert.equal(client.standardFlowEnabled, true);
      assert.equal(client.implicitFlowEnabled, false);
      assert.equal(client.directAccessGrantsEnabled, false);
      assert.equal(client.attributes['pkce.code.challenge.method'], 'S256');
      assert.deepEqual(client.webOrigins, [new URL(config.publicUrl).origin]);
    });

    it('puts the groups, the API audience and the vendor claim into access tokens', () => {
      assert.deepEqual(realm.groups.map((g) => g.name).sort(), ['backoffice', 'vendor']);
      const groups = mapper('oidc-group-membership-mapper');
      assert.equal(groups?.config['claim.name'], 'groups');
      assert.equal(groups?.config['access.token.claim'], 'true');
      const audience = mapper('oidc-audience-mapper');
      assert.equal(audience?.config['included.custom.audience'], config.oidc.audience);
      assert.equal(audience?.config['access.token.claim'], 'true');
      const vendorClaim = client?.protocolMappers.find((m) => m.config['claim.name'] === config.oidc.vendorClaim);
      assert.equal(
        vendorClaim?.config['access.token.claim'],
        'true',
        `the claim ${config.oidc.vendorClaim} links a vendor's login`,
      );
    });

    // a vendor who could set their e-mail to another vendor's read that vendor's money.
    it('lets users change neither their e-mail nor the vendor attribute that links them to a vendor', () => {
      assert.equal(config.oidc.vendorClaim, 'vendor');
      assert.equal(config.oidc.vendorByEmail, false, 'the e-mail does not link a vendor');
      const [profile] = realm.components?.['org.keycloak.userprofile.UserProfileProvider'] ?? [];
      assert.equal(profile?.providerId, 'declarative-user-profile');
      const attributes = (
        JSON.parse(profile.config['kc.user.profile.config'][0]) as {
          attributes: { name: string; permissions: { edit: string[] } }[];
        }
      ).attributes;
      for (const name of ['email', config.oidc.vendorClaim, 'username']) {
        assert.deepEqual(
          attributes.find((a) => a.name === name)?.permissions.edit,
          ['admin'],
          `only staff edit ${name}`,
        );
      }
      const mapped = client?.protocolMappers.find((m) => m.config['claim.name'] === config.oidc.vendorClaim);
      assert.equal(mapped?.config['user.attribute'], config.oidc.vendorClaim);
    });

    it('has one demo user per group, with a temporary password, the vendor linked to DEMO-1 by its vendor attribute', () => {
      for (const group of ['/backoffice', '/vendor']) {
        const user = realm.users.find((u) => u.groups.includes(group));
        assert.ok(user, `a demo user in ${group}`);
        assert.ok(
          user.credentials.every((c) => c.temporary),
          `${user.username} must choose a password at the first login`,
        );
      }
      assert.equal(realm.users.find((u) => u.groups.includes('/vendor'))?.email, `demo-1${DEMO_VENDOR_EMAIL_POSTFIX}`);
      assert.deepEqual(realm.users.find((u) => u.groups.includes('/vendor'))?.attributes, { vendor: ['DEMO-1'] });
    });
  });

  describe('against the app', () => {
    let db: Db;
    let config: Config;
    let http: ReturnType<typeof supertest>;
    let distDir: string;
    let dataDir = '';

    before(async function () {
      this.timeout(120_000);
      // Marked stand-ins for the built pages: which page a path gets is the app's routing.
      distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'deploy-dist-'));
      fs.mkdirSync(path.join(distDir, 'admin'));
      fs.mkdirSync(path.join(distDir, 'shop-widget'));
      fs.writeFileSync(path.join(distDir, 'admin', 'index.html'), '<title>back office</title>');
      fs.writeFileSync(path.join(distDir, 'admin', 'me.html'), '<title>vendor page</title>');
      fs.writeFileSync(path.join(distDir, 'shop-widget', 'index.html'), '<title>shop</title>');
      dataDir = await migratedCopy();
      config = loadConfig({ ...appEnvironment, DATABASE_URL: '', DATA_DIR: dataDir });
      db = createDb({ dataDir });
      await migrate(db);
      http = supertest(buildApp({ db, config, distDir }).callback());
    });

    after(async () => {
      await db?.destroy();
      if (distDir) fs.rmSync(distDir, { recursive: true, force: true });
      if (dataDir) removeDir(dataDir);
    });

    it('serves every redirect URI of the realm client with the page that finishes the login', async () => {
      const client = realm.clients.find((c) => c.clientId === config.oidc.clientId)!;
      const pages = [...client.redirectUris, ...client.attributes['post.logout.redirect.uris'].split('##')];
      assert.ok(pages.length >= 4, 'callbacks and logout pages of /backoffice and /me');
      for (const page of pages) {
        const url = new URL(page);
        assert.equal(url.origin, new URL(config.publicUrl).origin, `${page} is on PUBLIC_URL`);
        const res = await http.get(url.pathname);
        assert.equal(res.status, 200, page);
        assert.match(res.text, url.pathname.startsWith('/me') ? /vendor page/ : /back office/, page);
      }
    });

    it('answers the health checks of the image and of the balancer without a login', async () => {
      const healthcheck = /^HEALTHCHECK .*$/m.exec(dockerfile())?.[0];
      const imagePath = healthcheck && /['"](\/[\w/-]+)['"]/.exec(healthcheck)?.[1];
      const balancerPath = /health_uri\s+(\S+)/.exec(read('deploy/caddy/Caddyfile'))?.[1];
      assert.deepEqual([imagePath, balancerPath], ['/healthz', '/readyz']);
      for (const probe of [imagePath, balancerPath]) {
        const res = await http.get(probe!);
        assert.equal(res.status, 200, `${probe}: ${res.text}`);
      }
    });

    it('starts the server the image names', () => {
      const cmd = /^CMD (\[.*\])$/m.exec(dockerfile())?.[1];
      const entry = (JSON.parse(cmd!) as string[]).at(-1)!;
      // The server's bundle, which `npm run build` makes, as the image's build stage does.
      assert.ok(fs.existsSync(path.join(repo, entry)), `${entry} exists`);
      assert.match(read('package.json'), /"build": "[^"]*node scripts\/build-server\.mjs/);
      const ignored = read('.dockerignore')
        .split('\n')
        .filter((line) => line && !line.startsWith('#'));
      const folder = entry.split('/')[0];
      // A folder the context leaves out reaches the image only built in the build stage and copied.
      if (ignored.includes(folder))
        assert.match(
          dockerfile(),
          new RegExp(`^COPY --from=build /app/${folder} \\./${folder}$`, 'm'),
          `${entry} is copied into the image`,
        );
      assert.match(dockerfile(), /^RUN npm run build$/m);
    });

    it('runs every command-line tool from what the image holds: the bundles, without the sources or tsx', async function () {
      this.timeout(60_000);
      ensureBuild();
      // The runtime stage's files, laid out as its COPY lines say; its node_modules is this checkout's.
      const stage = dockerfile()
        .split(/^FROM /m)
        .at(-1)!;
      const image = fs.mkdtempSync(path.join(os.tmpdir(), 'image-'));
      try {
        for (const [, from, list] of stage.matchAll(/^COPY (?:--from=(\S+) )?(.+)$/gm)) {
          const parts = list.trim().split(/\s+/);
          const target = path.join(image, parts.pop()!);
          for (const source of parts) {
            const into = parts.length > 1 || target.endsWith('/') ? path.join(target, path.basename(source)) : target;
            fs.mkdirSync(path.dirname(into), { recursive: true });
            if (from === 'runtime-deps') fs.symlinkSync(path.join(repo, source.replace('/app/', '')), into);
            else fs.cpSync(path.join(repo, from ? source.replace('/app/', '') : source), into, { recursive: true });
          }
        }
        assert.ok(!fs.existsSync(path.join(image, 'api/src')), 'the image holds no sources');
        const pkg = JSON.parse(read('package.json')) as {
          scripts: Record<string, string>;
          dependencies: Record<string, string>;
        };
        assert.equal(pkg.dependencies.tsx, undefined, 'tsx is no dependency of the image');
        const tools = Object.entries(pkg.scripts).filter(
          ([name, script]) => name !== 'start' && /dist\/server\//.test(script),
        );
        assert.deepEqual(tools.map(([name]) => name).sort(), [
          'account',
          'backup',
          'check',
          'erase-emails',
          'migrate-to-postgres',
          'paper',
          'restore',
          'stripe-connect',
          'stripe-setup',
        ]);
        // Past their usage, each tool loads its bundle and reads the configuration, which refuses a bad
        // PORT before any database is opened: the answer shows that everything it imports is there.
        const args: Record<string, string[]> = {
          account: ['add', 'someone'],
          backup: ['x'],
          restore: ['x'],
          paper: ['list'],
        };
        for (const [name, script] of tools) {
          assert.doesNotMatch(script, /\btsx\b/, name);
          const out = await promisify(execFile)('npm', ['run', '--silent', name, '--', ...(args[name] ?? [])], {
            cwd: image,
            env: { ...process.env, PORT: 'none', DATA_DIR: path.join(image, 'data'), DATABASE_URL: '' },
          }).then(
            () => '',
            (failed: { stdout: string; stderr: string }) => failed.stdout + failed.stderr,
          );
          assert.match(out, /PORT must be a port number/, `npm run ${name} in the image: ${out}`);
          // One sentence for the operator, as the server's own refusal: no stack trace.
          assert.doesNotMatch(out, /^\s+at /m, `npm run ${name} in the image: ${out}`);
        }
      } finally {
        fs.rmSync(image, { recursive: true, force: true });
      }
    });

    it('imports from the bundles only packages the image installs, and bundles no devDependency', () => {
      ensureBuild();
      const { dependencies, devDependencies } = JSON.parse(read('package.json')) as Record<
        'dependencies' | 'devDependencies',
        Record<string, string>
      >;
      const files = fs
        .readdirSync(path.join(repo, 'dist/server'), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.mjs'));
      assert.ok(files.includes('server.mjs') && files.includes('maintenance.mjs'), files.join(', '));
      const packageOf = (specifier: string) => {
        const parts = specifier.split('/');
        return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
      };
      const imported = new Set<string>();
      const bundled = new Set<string>();
      for (const file of files) {
        const code = fs.readFileSync(path.join(repo, 'dist/server', file), 'utf8');
        // esbuild writes each import it leaves outside as `import … from "name"` or `import "name"`.
        for (const [, specifier] of code.matchAll(/^\s*(?:import|export)\b[^;'"]*?["']([^"'./][^"']*)["']/gm))
          if (!isBuiltin(specifier)) imported.add(packageOf(specifier));
        // What it bundled, each file by its path in the source map.
        const { sources } = JSON.parse(fs.readFileSync(path.join(repo, 'dist/server', `${file}.map`), 'utf8')) as {
          sources: string[];
        };
        for (const source of sources) {
          const inPackages = source.lastIndexOf('node_modules/');
          if (inPackages >= 0) bundled.add(packageOf(source.slice(inPackages + 'node_modules/'.length)));
        }
      }
      // The walk must see the packages, or it would pass with nothing to check.
      assert.ok(imported.has('@electric-sql/pglite'), [...imported].join(', '));
      for (const known of ['koa', 'knex', 'stripe', 'oidc-provider']) assert.ok(bundled.has(known), known);
      const missing = [...imported].filter((name) => !(name in dependencies)).sort();
      assert.deepEqual(missing, [], 'packages the bundles import that npm ci --omit=dev leaves out');
      const tools = [...bundled].filter((name) => name in devDependencies).sort();
      assert.deepEqual(tools, [], 'development packages bundled into the server');
    });
  });
});
