import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

// The shape of api/src as its imports draw it (docs/architecture.md): no file reaches itself through
// its imports, and folders lean on each other only where the pair is named below with its reason.

const root = path.resolve(import.meta.dirname, '../../api/src');

/** Every TypeScript file of api/src with the files of api/src it imports (relative imports only). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts')) {
        const text = fs.readFileSync(full, 'utf8');
        const targets = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+\.ts)'/g)]
          .map((m) => path.resolve(path.dirname(full), m[1]))
          .filter((target) => target.startsWith(root + path.sep));
        graph.set(full, targets);
      }
    }
  };
  walk(root);
  return graph;
}

/** The circles of the graph: its strongly connected parts of more than one file (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) === index.get(file)) {
      const part: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        part.push(path.relative(root, member));
      } while (member !== file);
      if (part.length > 1) found.push(part.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

/** The top folder of a file of api/src ('' for a file at the top). */
const folderOf = (file: string) => {
  const parts = path.relative(root, file).split(path.sep);
  return parts.length > 1 ? parts[0] : '';
};

/** The pairs of top folders that import each other, as "a <-> b" with a before b. */
function leaningPairs(graph: Map<string, string[]>): string[] {
  const edges = new Set<string>();
  for (const [file, targets] of graph)
    for (const target of targets) {
      const [from, to] = [folderOf(file), folderOf(target)];
      if (from && to && from !== to) edges.add(`${from} ${to}`);
    }
  return [...edges]
    .map((edge) => edge.split(' ') as [string, string])
    .filter(([from, to]) => from < to && edges.has(`${to} ${from}`))
    .map(([from, to]) => `${from} <-> ${to}`)
    .sort();
}

describe('the import structure of api/src', () => {
  const graph = importGraph();

  it('reads the imports it judges (so the checks below can fail)', () => {
    assert.ok(graph.size > 200, `${graph.size} files`);
    const app = graph.get(path.join(root, 'app.ts'))!;
    assert.ok(app.includes(path.join(root, 'foundations/config.ts')), 'app.ts imports the configuration');
    const made = new Map([
      ['/a.ts', ['/b.ts']],
      ['/b.ts', ['/a.ts']],
    ]);
    assert.deepEqual(circles(made).length, 1);
  });

  it('has no circle: no file reaches itself through its imports', () => {
    assert.deepEqual(circles(graph), []);
  });

  it('has folders that lean on each other only in the two pairs the architecture names', () => {
    // identity <-> settings: the settings name the login provider's issuer, and its login pages wear
    // the paper's name and colours. orders <-> shop: the shop's page without script places orders,
    // and an order checks the shop's vendor and embed origins.
    assert.deepEqual(leaningPairs(graph), ['identity <-> settings', 'orders <-> shop']);
  });
});
