import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Whatever picks the engine under test reads this variable (test/support/database.ts does). */
const MARKER = 'TEST_DATABASE_URL';
/** A file naming any of these chose its engines itself (test/support/engines.ts). */
const CHOOSES_ENGINES = /\b(ENGINES|ANY_ENGINE|acrossEngines)\b/;

/**
 * Whether a test file still takes the process's one engine, and so belongs in the PostgreSQL run
 * (TEST_DATABASE_URL): it can reach the database under test and names no engine choice: neither
 * ENGINES nor acrossEngines (it loops them, covering PostgreSQL in every run), nor ANY_ENGINE (it
 * runs once, on SQLite).
 */
export function takesTheProcessEngine(file: string, root: string): boolean {
  return !CHOOSES_ENGINES.test(readFileSync(resolve(root, file), 'utf8')) && usesTestDatabase(file, root);
}
// A path in quotes: a relative import ('./x.js', '../support/app.js') or a file a test starts by its
// path from the repository root ('test/security/reference-child.ts', 'app/main.ts').
const PATH_LITERAL = /['"`]((?:\.{1,2}\/|(?:src|test|app|packages|examples)\/)[^'"`\s$]+?)['"`]/g;

/**
 * Whether a test file can reach the database the test run is about: the file, or any file it
 * imports or starts by path (transitively), mentions TEST_DATABASE_URL. One that does not runs
 * the same code on every engine, so the PostgreSQL run can leave it to the SQLite run. A mention
 * in a comment counts too: when in doubt, a file runs on both.
 */
export function usesTestDatabase(file: string, root: string): boolean {
  const seen = new Set<string>();
  const pending = [resolve(root, file)];
  while (pending.length > 0) {
    const path = pending.pop()!;
    if (seen.has(path)) continue;
    seen.add(path);
    const { mentions, references } = read(path, root);
    if (mentions) return true;
    pending.push(...references);
  }
  return false;
}

const cache = new Map<string, { mentions: boolean; references: string[] }>();

function read(path: string, root: string) {
  let entry = cache.get(path);
  if (!entry) {
    const text = readFileSync(path, 'utf8');
    const references = [...text.matchAll(PATH_LITERAL)]
      .map(([, literal]) => sourceFile(resolve(literal.startsWith('.') ? dirname(path) : root, literal)))
      .filter((target) => target !== undefined);
    entry = { mentions: text.includes(MARKER), references };
    cache.set(path, entry);
  }
  return entry;
}

/** The source file an import names: `x.js` is `x.ts` (or `.tsx`) under NodeNext, a folder its index. */
function sourceFile(path: string): string | undefined {
  const candidates = [
    path,
    path.replace(/\.js$/, '.ts'),
    path.replace(/\.js$/, '.tsx'),
    join(path, 'index.ts'),
  ];
  // Only code: a test that reads a doc page mentioning the variable reaches no database.
  return candidates.find(
    (candidate) =>
      /\.(ts|tsx|js|mjs)$/.test(candidate) && existsSync(candidate) && statSync(candidate).isFile(),
  );
}
