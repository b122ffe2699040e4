import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// The README and docs/ say things about the code that must stay true while the code changes: which
// folders there are (docs/architecture.md), which environment variables the server reads
// (docs/configuration.md), and where their links lead. Read as text and held against the code.

const repo = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(repo, file), 'utf8');

/** Where the code lives: the folders directly inside these are named one by one. */
const sourceRoots = ['api/src', 'admin/src', 'shop-widget/src', 'tests'];

/**
 * Every folder that holds a tracked file, to this depth: each top-level folder (`api`), each folder
 * inside one (`api/src`, `deploy/caddy`, `tests/unit`), and each folder directly inside a source root
 * (`api/src/ledger`, `admin/src/backoffice`, `shop-widget/src/steps`). Deeper folders (a screen of the
 * back office, `api/src/stripe/sandbox`) belong to their parent's line.
 */
function repositoryFolders(files: string[]): string[] {
  const folders = new Set<string>();
  for (const file of files) {
    const parts = file.split('/').slice(0, -1);
    if (parts.length >= 1) folders.add(parts[0]);
    if (parts.length >= 2) folders.add(parts.slice(0, 2).join('/'));
    for (const root of sourceRoots) {
      const depth = root.split('/').length;
      if (file.startsWith(`${root}/`) && parts.length > depth) folders.add(parts.slice(0, depth + 1).join('/'));
    }
  }
  return [...folders].sort();
}

/**
 * The environment variables a source reads: `env.NAME`, `env['NAME']`, and a helper handed the
 * environment and a name, like `positiveInt(env, 'NAME', 30)`.
 */
function variablesRead(source: string): string[] {
  const patterns = [
    /\benv\.([A-Z][A-Z0-9_]*)\b/g,
    /\benv\[\s*['"`]([A-Z][A-Z0-9_]*)['"`]\s*\]/g,
    /\(\s*env\s*,\s*['"`]([A-Z][A-Z0-9_]*)['"`]/g,
  ];
  return [...new Set(patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((m) => m[1])))].sort();
}

/** The names in the first cell of each table row: `| \`A\`, \`B\` | … |` names A and B. */
function tableNames(markdown: string): Set<string> {
  const names = new Set<string>();
  for (const line of markdown.split('\n')) {
    const first = /^\|([^|]*)\|/.exec(line)?.[1] ?? '';
    for (const m of first.matchAll(/`([A-Z][A-Z0-9_]*)(?:=[^`]*)?`/g)) names.add(m[1]);
  }
  return names;
}

/** The text outside fenced code blocks, with inline code emptied, line by line. */
function prose(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').map((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line.replace(/`[^`]*`/g, '``');
  });
}

/** The anchors GitHub makes of a page's headings: lower case, punctuation dropped, each space a hyphen. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? undefined : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]*>/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count ? `${base}-${count}` : base);
  }
  return result;
}

/** Every relative link of a page: Markdown links and images, and the src/href of its HTML. */
function relativeLinks(markdown: string): string[] {
  const targets = prose(markdown).flatMap((line) => [
    ...[...line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]),
    ...[...line.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]),
  ]);
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

const pages = ['README.md', ...fs.readdirSync(path.join(repo, 'docs')).map((name) => `docs/${name}`)].filter((file) =>
  file.endsWith('.md'),
);

/** What is wrong with each relative link of these pages: a file that does not exist, or a missing anchor. */
function brokenLinks(files: string[], readPage: (file: string) => string = read): string[] {
  const broken: string[] = [];
  for (const file of files) {
    for (const link of relativeLinks(readPage(file))) {
      const [target, anchor] = link.split('#', 2);
      const resolved = target ? path.posix.normalize(path.posix.join(path.posix.dirname(file), target)) : file;
      if (resolved.startsWith('..') || !fs.existsSync(path.join(repo, resolved))) {
        broken.push(`${file}: ${link} (no file ${resolved})`);
        continue;
      }
      if (anchor !== undefined && resolved.endsWith('.md') && !anchors(readPage(resolved)).has(anchor))
        broken.push(`${file}: ${link} (no heading "#${anchor}" in ${resolved})`);
    }
  }
  return broken;
}

/**
 * What would narrate the work instead of the product: an issue named by its number, one of an issue's
 * acceptance points by its number, a helper by its letter. The history of the work is `git log`.
 */
const narration = [/\bissues? #?\d+\b/i, /\bacceptance (?:point )?\d+\b/i, /\bhelper [A-Z]\b/];

/** Each line of these texts that narrates, as `file:line: text`. */
function narratingLines(files: string[], readFile: (file: string) => string = read): string[] {
  return files.flatMap((file) =>
    readFile(file)
      .split('\n')
      .flatMap((line, index) =>
        narration.some((pattern) => pattern.test(line)) ? [`${file}:${index + 1}: ${line.trim()}`] : [],
      ),
  );
}

/** The tracked files that are text a person reads (code, docs, configuration), not data or pictures. */
const textFile = /\.(?:ts|tsx|mjs|cjs|js|md|json|yaml|yml|css|html|sql|sh)$|(?:^|\/)(?:Dockerfile|run)$/;

describe('the docs', () => {
  it('name every folder of the repository in docs/architecture.md, down to the depth repositoryFolders gives', () => {
    const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: repo, encoding: 'utf8' }).split('\0');
    const folders = repositoryFolders(tracked.filter(Boolean));
    // The walk itself must see the repository, or it would pass with nothing to check.
    for (const known of [
      'api',
      'api/src',
      'api/src/ledger',
      'admin/src/backoffice',
      'shop-widget/src/steps',
      'tests/unit',
    ])
      assert.ok(folders.includes(known), `the walk finds ${known}`);
    const architecture = read('docs/architecture.md');
    const missing = folders.filter((folder) => !architecture.includes(`\`${folder}/\``));
    assert.deepEqual(missing, [], 'each folder is named in docs/architecture.md as `folder/`');
  });

  it('give every environment variable api/src/foundations/config.ts reads a row in docs/configuration.md', () => {
    const variables = variablesRead(read('api/src/foundations/config.ts'));
    // The parse must find the three forms, or a change of style would leave nothing to check.
    for (const known of ['PORT', 'HOST', 'BIND', 'DATABASE_URL', 'MAX_CONNECTIONS_PER_ADDRESS', 'STRIPE_TIMEOUT_MS'])
      assert.ok(variables.includes(known), `the parse finds ${known}`);
    assert.ok(variables.length >= 40, `the parse finds ${variables.length} variables`);
    const documented = tableNames(read('docs/configuration.md'));
    const missing = variables.filter((name) => !documented.has(name));
    assert.deepEqual(missing, [], 'each variable is the first cell of a table row in docs/configuration.md');
  });

  it('link only to files and headings that exist, and the README links every page of docs/', () => {
    assert.deepEqual(brokenLinks(pages), []);
    const readmeLinks = new Set(relativeLinks(read('README.md')).map((link) => link.split('#')[0]));
    const unlinked = pages.filter((page) => page.startsWith('docs/') && !readmeLinks.has(page));
    assert.deepEqual(unlinked, [], 'pages the README does not lead to');
  });

  it('names headings as GitHub does, and reports a missing file or heading', () => {
    const headings =
      '# Privacy / Datenschutz\n## Safe by default: what `HOST` refuses\n## Tests\n```\n# not a heading\n```\n## Tests\n';
    assert.deepEqual(
      [...anchors(headings)],
      ['privacy--datenschutz', 'safe-by-default-what-host-refuses', 'tests', 'tests-1'],
    );
    const planted =
      '[a](configuration.md#nowhere) [b](nothing.md) [c](configuration.md#the-server) [d](https://x.org/y)';
    const readPlanted = (file: string) => (file === 'docs/planted.md' ? planted : read(file));
    assert.deepEqual(brokenLinks(['docs/planted.md'], readPlanted), [
      'docs/planted.md: configuration.md#nowhere (no heading "#nowhere" in docs/configuration.md)',
      'docs/planted.md: nothing.md (no file docs/nothing.md)',
    ]);
  });

  it('narrate no work: no issue, acceptance point or helper is named by its number or letter', () => {
    const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: repo, encoding: 'utf8' })
      .split('\0')
      .filter((file) => textFile.test(file) && file !== 'package-lock.json');
    assert.ok(tracked.length > 500, `the walk reads ${tracked.length} files`);
    assert.deepEqual(narratingLines(tracked), []);
    // Planted in a page of its own (split here, or this file would narrate): each form is found, and
    // the product's own words are not.
    const planted = [
      ['Fixed in iss', 'ue 19.'],
      ['// Accept', 'ance 4: the totals'],
      ['written by help', 'er A'],
      ['the next round of the sandbox, a webhook retried, an issued receipt 12'],
    ].map((parts) => parts.join(''));
    assert.deepEqual(
      narratingLines(['docs/planted.md'], () => planted.join('\n')),
      planted.slice(0, 3).map((line, index) => `docs/planted.md:${index + 1}: ${line}`),
    );
  });
});
