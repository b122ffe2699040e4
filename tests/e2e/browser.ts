import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page, type Response } from 'playwright-core';
import { atRunEnd } from '../support/run-end.ts';
import { outputDir } from './server.ts';

/**
 * Chromium from the system (Debian's packages), never a Playwright download: its headless shell, the
 * engine of the same Chromium without the browser around it ("a separate, alternate browser
 * implementation … It didn't share any of the Chrome browser code in //chrome",
 * https://developer.chrome.com/docs/automation-and-testing/headless). The full browser's headless
 * mode sets up a whole browser tab for every page; a new context's page costs about a third of its
 * CPU time in the shell, and the tests open several hundred of them.
 */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';

export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

/** A phone: the customer scans a badge on the street. */
export const phone = { width: 390, height: 844 };

/**
 * Launches headless Chromium; every launch gets its own temporary profile. Whatever its pages report
 * as blocked by a Content-Security-Policy (Chromium says so on the console) fails the browser's close,
 * so a policy that breaks a page never passes unnoticed, in whichever test it happens.
 */
export async function launchChromium(): Promise<Browser> {
  const browser = await startChromium();
  const violations: string[] = [];
  watchContexts(browser, (context) => reportViolations(context, violations));
  const close = browser.close.bind(browser);
  browser.close = async (options) => {
    await close(options);
    if (violations.length)
      throw new Error(`The pages reported Content-Security-Policy violations:\n${violations.join('\n')}`);
  };
  return browser;
}

async function startChromium(): Promise<Browser> {
  if (!fs.existsSync(chromiumPath)) {
    throw new Error(
      `Chromium was not found at ${chromiumPath}: install it (apt-get install -y chromium-headless-shell) or set CHROMIUM_PATH.`,
    );
  }
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs, timeout: 60_000 });
}

/** Whatever the pages of `context` report as blocked by a Content-Security-Policy goes to `violations`. */
function reportViolations(context: BrowserContext, violations: string[]): void {
  context.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text()))
      violations.push(`${message.page()?.url() ?? '?'}: ${message.text()}`);
  });
}

/**
 * Every context of `browser` gets the newspaper's time zone and waits for the shop's script, and is
 * handed to `opened`. newPage() opens its own context through newContext(), so every page is watched.
 */
function watchContexts(browser: Browser, opened: (context: BrowserContext) => void): void {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    // The office and the customers live where the newspaper does (TIME_ZONE, Europe/Berlin by
    // default): the back office's "today" is theirs, not this machine's UTC.
    const context = await newContext({ timezoneId: 'Europe/Berlin', ...options });
    opened(context);
    if (options?.javaScriptEnabled !== false) context.on('page', waitForTheShopScript);
    return context;
  };
}

/** What one describe did in the shared Chromium: its contexts and the policy violations they reported. */
interface Lease {
  contexts: Set<BrowserContext>;
  violations: string[];
}

/** The describes holding the shared Chromium, innermost last: a context opened now is the last one's. */
const leases: Lease[] = [];
let shared: Promise<Browser> | undefined;

/** The process's one Chromium, started on first use and again if it went away. */
async function sharedChromium(): Promise<Browser> {
  const running = await shared?.catch(() => undefined);
  if (running?.isConnected()) return running;
  shared = startChromium().then((browser) => {
    watchContexts(browser, (context) => {
      const lease = leases.at(-1);
      if (!lease) return;
      lease.contexts.add(context);
      context.on('close', () => lease.contexts.delete(context));
      reportViolations(context, lease.violations);
    });
    return browser;
  });
  return shared;
}

atRunEnd(async () => {
  const running = await shared?.catch(() => undefined);
  shared = undefined;
  await running?.close();
});

/**
 * Chromium for one describe, as launchChromium() gives it, without a launch of its own: the process
 * keeps one Chromium (a launch costs a second or more, for each of about 25 suites) and each describe gets fresh
 * contexts in it, which share no cookies, storage or cache with any other. Its close() closes every
 * context opened while it was held (through it or through a page's browser()) and fails on the
 * policy violations they reported, as a launched browser's close does.
 */
export async function leaseChromium(): Promise<Browser> {
  const browser = await sharedChromium();
  const lease: Lease = { contexts: new Set(), violations: [] };
  leases.push(lease);
  const close = async () => {
    if (leases.includes(lease)) leases.splice(leases.indexOf(lease), 1);
    await Promise.all([...lease.contexts].map((context) => context.close().catch(() => undefined)));
    if (lease.violations.length)
      throw new Error(`The pages reported Content-Security-Policy violations:\n${lease.violations.join('\n')}`);
  };
  return new Proxy(browser, {
    get(target, property) {
      if (property === 'close') return close;
      if (property === 'contexts') return () => [...lease.contexts];
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * A shop page rendered on the server asks for its script only after its first paint, so the load
 * event no longer means the widget has taken over. Every page's goto and reload wait for that too (as
 * before the deferral), so a test's click reaches the widget, not the page's plain forms; the forms
 * alone have a test of their own, with JavaScript disabled.
 */
function waitForTheShopScript(page: Page): void {
  /** Only a page whose HTML holds the loader; any other page may be gone to the next one by then. */
  const taken = async (response: Response | null, waitUntil = 'load') => {
    if (waitUntil !== 'load' || !response) return;
    // A page that went on by itself (the back office to its login) has no body left, and is no shop page.
    const html = response.headers()['content-type']?.startsWith('text/html')
      ? await response.text().catch(() => '')
      : '';
    if (html.includes('<script data-src=')) await page.locator('#shop[data-ready]').waitFor({ state: 'attached' });
  };
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    await taken(response, options?.waitUntil);
    return response;
  };
  const reload = page.reload.bind(page);
  page.reload = async (options) => {
    const response = await reload(options);
    await taken(response, options?.waitUntil);
    return response;
  };
}

/**
 * Waits until what the page last drew has stopped moving: two frames, so that a transition the last
 * render began (react-admin fades lists and forms in) has started, then until every transition and
 * animation that ends has ended (a spinner's endless one never does and is left running).
 */
export async function animationsDone(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' || animation.effect?.getComputedTiming().iterations === Infinity,
      ),
  );
}

/**
 * Gives the page another size and waits until it has settled: the back office's sidebar folds or
 * opens when the width crosses its breakpoint, and a click during that slide can land beside its target.
 */
export async function resize(page: Page, size: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(size);
  await animationsDone(page);
}

/**
 * Whether the e2e tests save their screenshots: they are for a person to look at, and `.ci/run` turns
 * them off (E2E_SCREENSHOTS=0), since a CI run keeps no files; encoding a full page as PNG costs
 * Chromium about half a CPU-second, and the suite takes a few hundred. A test skips the screens and
 * widths it opens for a screenshot alone when none is taken.
 */
export const screenshotsWanted = process.env.E2E_SCREENSHOTS !== '0';

/** Saves a full-page screenshot under .test-output/ (unless E2E_SCREENSHOTS=0). */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!screenshotsWanted) return;
  fs.mkdirSync(outputDir, { recursive: true });
  const file = path.join(outputDir, `${name}.png`);
  try {
    await page.screenshot({ path: file, fullPage: true });
  } catch (error) {
    // On a loaded machine Chromium now and then refuses a capture with "Unable to capture screenshot"
    // (an upstream fault: github.com/puppeteer/puppeteer/issues/5341). The page is unchanged, so it
    // is asked once more; any other error, or a second refusal, fails the test.
    if (!String(error).includes('Unable to capture screenshot')) throw error;
    await page.screenshot({ path: file, fullPage: true });
  }
}

/**
 * Scrolled to the end of the page, as a thumb does, `selector`'s last match is what a tap at its
 * centre reaches: nothing (a form's floating toolbar, say) lies over it. Fails naming what does.
 */
export async function reachableAtEnd(page: Page, selector: string): Promise<void> {
  const covering = await page.evaluate((selector) => {
    const from = window.scrollY;
    window.scrollTo(0, document.documentElement.scrollHeight);
    const targets = document.querySelectorAll(selector);
    const target = targets[targets.length - 1];
    if (!target) return `nothing matches ${selector}`;
    const box = target.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    window.scrollTo(0, from);
    if (hit && target.contains(hit)) return undefined;
    const over = hit?.closest('[role], [id], [class]');
    return `${selector} lies under ${over ? `${over.tagName.toLowerCase()}.${String(over.className).split(' ')[0] || over.id}` : 'nothing on screen'}`;
  }, selector);
  if (covering) throw new Error(`At the end of the page, ${covering}`);
}

/**
 * Tabs from the start of the page through the elements in `scope`, as a keyboard user goes down a
 * form, and answers each focused one that a tap at its centre would not reach because something (a
 * form's sticky save bar, say) lies over it, named with what covers it. The page is left at its start.
 */
export async function coveredWhileTabbing(page: Page, scope: string, maxSteps = 100): Promise<string[]> {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  const covered: string[] = [];
  let inside = false;
  for (let step = 0; step < maxSteps; step++) {
    await page.keyboard.press('Tab');
    // No named helpers inside: the page knows nothing of the __name tsx gives them.
    const seen = await page.evaluate((scope) => {
      const focused = document.activeElement;
      if (!focused?.closest(scope)) return { inside: false };
      const box = focused.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      // Its own label counts as itself: a MUI label is still sliding off the field as it takes the focus.
      const own = [...((focused as HTMLInputElement).labels ?? [])];
      if (hit && (focused.contains(hit) || hit.contains(focused) || own.some((label) => label.contains(hit))))
        return { inside: true };
      const over = hit?.closest('[class]') ?? hit;
      const label = focused.getAttribute('aria-label') ?? own[0]?.textContent;
      const problem = [
        `${focused.tagName.toLowerCase()}${focused.id ? `#${focused.id}` : ''}`,
        label ? ` (${label.trim()})` : '',
        ' lies under ',
        over ? `${over.tagName.toLowerCase()}.${String(over.className).split(' ')[0]}` : 'nothing',
      ].join('');
      return { inside: true, problem };
    }, scope);
    if (seen.problem) covered.push(seen.problem);
    if (inside && !seen.inside) break;
    inside ||= seen.inside;
  }
  // A scope the focus never reached would make an empty answer say nothing.
  if (!inside) throw new Error(`Tabbing ${maxSteps} times never reached ${scope}`);
  await page.evaluate(() => window.scrollTo(0, 0));
  return covered;
}

/**
 * The outline of `input`'s control (the closest `control` around it, or the `part` in that) before
 * and after the keyboard comes to it from the element before it, as "style width colour". Checks
 * that the keyboard did arrive there, with the browser's :focus-visible.
 */
export async function keyboardFocusRing(
  input: Locator,
  control: string,
  part?: string,
): Promise<{ before: string; after: string }> {
  const ring = () =>
    input.evaluate(
      (element, [control, part]) => {
        const host = element.closest(control!)!;
        const style = getComputedStyle(part ? host.querySelector(part)! : host);
        return `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`;
      },
      [control, part],
    );
  const before = await ring();
  await input.focus();
  await input.page().keyboard.press('Shift+Tab');
  await input.page().keyboard.press('Tab');
  assert.ok(
    await input.evaluate((element) => element === document.activeElement && element.matches(':focus-visible')),
    'the keyboard reached the control',
  );
  return { before, after: await ring() };
}
