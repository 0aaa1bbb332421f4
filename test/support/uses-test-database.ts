import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Whatever picks the engine under test reads this variable (test/support/database.ts does). */
const MARKER = 'TEST_DATABASE_URL';
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
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}
