import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { resolveLocalhostNames } from '../../api/src/startup/localhost-names.ts';
import {
  demoPassword,
  nameNewspaper,
  platformDatabase,
  processSlug,
  runPaper,
  type PlatformDatabase,
} from '../support/platform.ts';
import { logInAtProvider, openLoggedIn } from './admin-login.ts';
import { leaseChromium, screenshot } from './browser.ts';
import { freePort, removeDir, startServer, type RunningServer } from './server.ts';

// Many papers, one installation, as an operator tries it on a laptop: two demo papers added with
// `npm run paper` to one PostgreSQL database, one `npm start` with PLATFORM_DOMAIN=localhost, and
// Chromium at a.localhost and b.localhost (names under .localhost are loopback to Chromium itself).
// Each host's shop, back office and /me are that paper's, in its currency; a host that no paper
// lists answers 404 with a sentence.

const serverUrl = process.env.TEST_DATABASE_URL;
const suite = serverUrl ? describe : describe.skip;

interface TrialPaper {
  slug: string;
  host: string;
  name: string;
  options: string[];
  /** How the paper's amounts read, and how the other paper's would. */
  money: RegExp;
  otherMoney: RegExp;
  passwords: { office: string; vendor: string };
  context: BrowserContext;
  errors: string[];
}

suite(
  `e2e: two papers at their own hosts, one server${serverUrl ? '' : ' (skipped: needs TEST_DATABASE_URL)'}`,
  function () {
    // Two `npm run paper -- add --demo` (each a process migrating and seeding a schema), then the server.
    this.timeout(300_000);
    const secret = 'platform e2e secret';
    const papers = [
      {
        slug: processSlug('a'),
        host: 'a.localhost',
        name: 'Straßenblatt A',
        options: [],
        money: /€/,
        otherMoney: /CHF/,
      },
      {
        slug: processSlug('b'),
        host: 'b.localhost',
        name: 'Surprise B',
        options: ['--currency', 'CHF', '--country', 'CH'],
        money: /CHF/,
        otherMoney: /€/,
      },
    ] as TrialPaper[];
    let database: PlatformDatabase;
    let server: RunningServer;
    let browser: Browser;
    let port: number;
    const at = (host: string, path: string) => `http://${host}:${port}${path}`;
    /**
     * A new tab in the paper's context. The login a tab's page keeps (the back office's and /me's, in
     * the tab's session storage) is the tab's own, and the provider's cookie is gone: the next login is a new one.
     */
    const newTab = async (paper: TrialPaper) => {
      await paper.context.clearCookies();
      await Promise.all(paper.context.pages().map((page) => page.close()));
      const page = await paper.context.newPage();
      page.on('pageerror', (error) => paper.errors.push(`${page.url()}: ${error.message}`));
      return page;
    };
    /** The page's text as a reader sees it (no-break spaces as spaces). */
    const text = async (page: Page) => (await page.locator('body').innerText()).replace(/[\u00a0\u202f]/g, ' ');

    before(async function () {
      // The test's own readiness check goes to a.localhost, as Chromium and the server resolve it.
      resolveLocalhostNames();
      database = await platformDatabase(serverUrl!, `platform_e2e_${process.pid}`);
      // Each paper's address carries the port, from its first start (the demo's links) on.
      port = await freePort();
      const platform = { PLATFORM_DOMAIN: 'localhost', PLATFORM_SECRET: secret };
      for (const paper of papers) {
        const added = await runPaper(
          { ...process.env, ...platform, DATABASE_URL: database.url, PORT: String(port) },
          'add',
          paper.slug,
          '--host',
          paper.host,
          ...paper.options,
          '--demo',
        );
        assert.equal(added.code, 0, added.out);
        paper.passwords = { office: demoPassword(added.out, 'office'), vendor: demoPassword(added.out, 'vendor') };
        await nameNewspaper(database, secret, paper.slug, paper.name);
      }
      [server, browser] = await Promise.all([
        startServer({
          databaseUrl: database.url,
          port,
          readyAt: at(papers[0].host, ''),
          // As on a laptop: no PUBLIC_URL; a paper at a .localhost name counts as public, so its
          // sandbox is asked for (docs/configuration.md, PLATFORM_DOMAIN).
          env: { ...platform, PUBLIC_URL: undefined, STRIPE_SANDBOX: 'true' },
        }),
        leaseChromium(),
      ]);
      for (const paper of papers) {
        // Wide enough that the test-mode ribbon (STRIPE_SANDBOX) leaves the paper's name in sight.
        paper.context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'de-DE' });
        paper.errors = [];
      }
    });

    after(async function () {
      this.timeout(60_000);
      // The papers' roles outlive a failed test unless dropped: the browser's complaints come after.
      const closed = await browser?.close().then(
        () => undefined,
        (error: Error) => error,
      );
      const code = await server?.stop();
      if (server) removeDir(server.dataDir);
      await database?.drop();
      if (closed) throw closed;
      assert.equal(code ?? 0, 0, 'the server exits with 0 on SIGTERM');
      for (const paper of papers) assert.deepEqual(paper.errors ?? [], [], `${paper.host}'s pages threw no errors`);
    });

    it('prints where each paper is opened', () => {
      for (const paper of papers)
        assert.match(
          server.stdout(),
          new RegExp(`^ +${paper.slug} +${at(paper.host, '').replace(/\./g, '\\.')}$`, 'm'),
        );
    });

    it("shows each paper's shop at its host: its name, its prices in its currency", async () => {
      for (const paper of papers) {
        const page = await newTab(paper);
        await page.goto(at(paper.host, '/v/DEMO-1/shop'));
        await page.locator('h1').waitFor();
        const shown = await text(page);
        assert.ok(shown.includes(paper.name), `${paper.host} names ${paper.name}:\n${shown}`);
        assert.match(shown, paper.money, `${paper.host}'s prices`);
        assert.doesNotMatch(shown, paper.otherMoney, `${paper.host}'s prices`);
        await screenshot(page, `platform-${paper.host}-shop`);
      }
    });

    it("logs a vendor into /me at each paper's host, with the credit in its currency", async () => {
      for (const paper of papers) {
        const page = await newTab(paper);
        await page.goto(at(paper.host, '/me'));
        await logInAtProvider(page, 'vendor', paper.passwords.vendor);
        await page.waitForURL(at(paper.host, '/me'));
        const credit = page.locator('#me-credit-amount');
        await credit.waitFor();
        assert.match(await credit.innerText(), paper.money);
        await page.waitForFunction((name) => document.title.startsWith(`${name} |`), paper.name);
        await screenshot(page, `platform-${paper.host}-me`);
      }
    });

    it("logs office staff into each paper's back office at its host, with that paper's vendors", async () => {
      for (const paper of papers) {
        const page = await newTab(paper);
        await openLoggedIn(page, at(paper.host, '/backoffice/vendorsummary'), 'office', paper.passwords.office);
        await page.getByRole('cell', { name: 'DEMO-1', exact: true }).waitFor();
        await page.waitForFunction((name) => document.title.startsWith(`${name} |`), paper.name);
        const shown = await text(page);
        assert.match(shown, paper.money, `${paper.host}'s credits`);
        assert.doesNotMatch(shown, paper.otherMoney, `${paper.host}'s credits`);
        await screenshot(page, `platform-${paper.host}-backoffice`);
      }
    });

    it('answers a host no paper lists with 404 and a sentence, never with a paper', async () => {
      const page = await newTab(papers[0]);
      for (const host of ['c.localhost', 'localhost']) {
        const response = await page.goto(at(host, '/v/DEMO-1'));
        assert.equal(response?.status(), 404, host);
        assert.equal(
          (await text(page)).trimEnd(),
          'Unter dieser Adresse gibt es keine Zeitung.\nNo newspaper is served at this address.',
          host,
        );
      }
      await screenshot(page, 'platform-unknown-host');
    });
  },
);
