import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = resolve(import.meta.dirname, '../../src');

/** What the folders at the top (the CLI, the testing helpers, the main entry point) may import. */
const everything = [
  'core',
  'database',
  'http',
  'views',
  'rate-limits',
  'kernel',
  'observability',
  'auth',
  'oauth',
  'billing',
  'plans',
  'mail',
  'accounts',
  'organizations',
  'signin',
  'config',
];

/** What every module at auth's level builds on. */
const foundation = ['core', 'database', 'http', 'views', 'rate-limits', 'kernel', 'observability'];

/**
 * The layer rule of docs/architecture.md: which folders of `src/` each folder may import.
 * Tests (`*.test.ts`) may import anything.
 */
const allowed: Record<string, readonly string[]> = {
  core: [],
  database: ['core'],
  http: ['core'],
  views: ['core', 'http'],
  // Named rate limits (counters in Redis or the database): infrastructure the kernel wires, like
  // the database connection; auth, oauth, plans and accounts define their limits on it.
  'rate-limits': ['core', 'database', 'http'],
  kernel: ['core', 'database', 'http', 'rate-limits'],
  // Metrics, readiness, request ids: just above the kernel; the modules above report to it.
  observability: ['core', 'database', 'http', 'views', 'rate-limits', 'kernel'],
  auth: foundation,
  oauth: [...foundation, 'auth'],
  billing: ['core', 'database', 'http', 'views', 'kernel', 'observability', 'auth'],
  plans: [...foundation, 'auth', 'oauth', 'billing'],
  // Above observability, which it reports its outbox and failed sends to.
  mail: ['core', 'database', 'http', 'views', 'kernel', 'observability'],
  accounts: [...foundation, 'auth', 'oauth', 'billing', 'mail'],
  // Beside accounts, not on it: members sign in through auth, invitations go through mail; above
  // plans, whose usage it shows per organization.
  organizations: [...foundation, 'auth', 'oauth', 'billing', 'plans', 'mail'],
  // Sign-in methods (passkeys, upstream providers): above accounts, whose account page and
  // notices they add to, reaching the modules below only through their entry points (a test below).
  signin: [...foundation, 'auth', 'oauth', 'mail', 'accounts'],
  config: [
    'core',
    'database',
    'http',
    'observability',
    'auth',
    'oauth',
    'billing',
    'plans',
    'mail',
    'accounts',
    'signin',
  ],
  testing: everything,
  cli: everything,
  index: everything,
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const folderOf = (path: string) =>
  relative(src, path)
    .split('/')[0]!
    .replace(/\.tsx?$|\.js$/, '');

/** Folder → folder edges, each with one file that makes it. */
function folderEdges(): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(src)) {
    const from = folderOf(file);
    const text = readFileSync(file, 'utf8');
    for (const [, spec] of text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const to = folderOf(resolve(dirname(file), spec!));
      if (to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      edges.get(from)!.set(to, relative(src, file));
    }
  }
  return edges;
}

/** `from -> to` for each import of a file in folder `from` of a file in folder `to`, without repeats. */
function importsInto(from: string, to: string): string[] {
  const edges = sourceFiles(join(src, from)).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)]
      .map(([, spec]) => resolve(dirname(file), spec!))
      .filter((target) => folderOf(target) === to)
      .map((target) => `${relative(src, file)} -> ${relative(src, target)}`),
  );
  return [...new Set(edges)];
}

describe('architecture: dependencies point one way', () => {
  const edges = folderEdges();

  it('every folder of src/ has a place in the layer rule', () => {
    const folders = new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])]);
    expect([...folders].filter((f) => !(f in allowed))).toEqual([]);
  });

  it('no import goes against the layer rule', () => {
    const wrong: string[] = [];
    for (const [from, targets] of edges) {
      for (const [to, file] of targets) {
        if (!allowed[from]?.includes(to)) wrong.push(`${from} -> ${to} (in ${file})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('loads the optional @tollgate/sandbox package in one place only, with a dynamic import', () => {
    const importers = sourceFiles(src).filter((file) =>
      readFileSync(file, 'utf8').includes("'@tollgate/sandbox"),
    );
    expect(importers.map((file) => relative(src, file))).toEqual(['billing/sandbox-package.ts']);
    const text = readFileSync(join(src, 'billing/sandbox-package.ts'), 'utf8');
    expect(text).not.toMatch(/^import[^;]*'@tollgate\/sandbox/m);
  });

  it('billing reaches auth through one file, by its public entry point', () => {
    expect(importsInto('billing', 'auth')).toEqual(['billing/billable-user.ts -> auth/index.js']);
  });

  it('plans reaches oauth only through its public entry point (the hooks oauth declares)', () => {
    const targets = new Set(importsInto('plans', 'oauth').map((edge) => edge.split(' -> ')[1]));
    expect([...targets]).toEqual(['oauth/index.js']);
  });

  it('signin reaches auth, oauth, mail and accounts only through their public entry points', () => {
    const targets = ['auth', 'oauth', 'mail', 'accounts'].flatMap((to) =>
      importsInto('signin', to).map((edge) => edge.split(' -> ')[1]),
    );
    expect([...new Set(targets)].filter((target) => !target!.endsWith('/index.js'))).toEqual([]);
  });

  it('no import cycle between folders', () => {
    const cycles: string[] = [];
    const visit = (node: string, path: string[]) => {
      for (const next of edges.get(node)?.keys() ?? []) {
        if (path.includes(next)) cycles.push([...path.slice(path.indexOf(next)), next].join(' -> '));
        else visit(next, [...path, next]);
      }
    };
    for (const node of edges.keys()) visit(node, [node]);
    expect(cycles).toEqual([]);
  });
});
