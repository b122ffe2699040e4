import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { animationsDone } from './browser.ts';

// axe-core runs inside the page under test; its source is read once from node_modules and injected,
// so the pages' Content-Security-Policy (which forbids inline and foreign scripts) does not block it.
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Violation {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
}

/**
 * The critical and serious violations axe-core finds on the page as it is now (and the moderate ones
 * too when asked), and its h1 count.
 */
export async function seriousViolations(
  page: Page,
  options: { moderate?: boolean } = {},
): Promise<{ violations: Violation[]; h1: number }> {
  const counted = new Set(['critical', 'serious', ...(options.moderate ? ['moderate'] : [])]);
  // A dialog fading in is half transparent: its colours are judged once its transitions have ended.
  await animationsDone(page);
  // A page keeps axe between checks until it navigates: parse its half a megabyte only once per page.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    type Run = (context: Document, options: object) => Promise<AxeResult>;
    const axe = (window as unknown as { axe: { run: Run } }).axe;
    // A visible label that differs from the accessible name ("DE" named "Deutsch") stops voice control
    // users; axe counts the rule as experimental and leaves it off unless asked.
    // Only violations are read: axe still runs every rule on every node, but keeps one node of each
    // pass, incomplete and inapplicable result instead of describing them all (its API's resultTypes).
    const found = await axe.run(document, {
      rules: { 'label-content-name-mismatch': { enabled: true } },
      resultTypes: ['violations'],
    });
    return { violations: found.violations, h1: document.querySelectorAll('h1').length };
  });
  const violations = result.violations
    .filter((v) => counted.has(v.impact ?? ''))
    .map((v) => ({
      id: v.id,
      impact: v.impact ?? '',
      help: v.help,
      targets: v.nodes.slice(0, 5).map((node) => node.target.join(' ')),
    }));
  return { violations, h1: result.h1 };
}

/**
 * Fails with a readable list unless the page has no critical and no serious axe-core violation (nor a
 * moderate one, with `moderate`) and exactly one h1: what a screen reader user and a person with low
 * vision meet on this screen.
 */
export async function expectAccessible(page: Page, label: string, options: { moderate?: boolean } = {}): Promise<void> {
  const { violations, h1 } = await seriousViolations(page, options);
  const problems = violations.map((v) => `${v.impact} ${v.id} (${v.help}): ${v.targets.join(' | ')}`);
  if (h1 !== 1) problems.push(`the page has ${h1} h1 headings instead of one`);
  if (problems.length) throw new Error(`Accessibility of ${label}:\n  ${problems.join('\n  ')}`);
}

/**
 * expectAccessible for a page of a context with JavaScript switched off, where axe cannot run (its
 * checks wait on timers the page does not run): the page's HTML as that browser parsed it (what it
 * shows inside noscript, without scripts or a refresh) judged in a context with JavaScript, at the
 * same width, its files from the same server.
 */
export async function expectAccessibleWithoutScript(page: Page, label: string): Promise<void> {
  const html = (await page.content())
    .replace(/<script\b[\s\S]*?<\/script>/gi, '')
    .replace(/<meta http-equiv="refresh"[^>]*>/gi, '')
    .replace(/<\/?noscript>/gi, '');
  const browser = page.context().browser();
  assert.ok(browser, 'a page of a browser');
  const context = await browser.newContext({ viewport: page.viewportSize() });
  try {
    const copy = await context.newPage();
    await copy.setContent(html.replace(/<head>/i, () => `<head><base href="${new URL(page.url()).origin}/">`));
    await expectAccessible(copy, label);
  } finally {
    await context.close();
  }
}
