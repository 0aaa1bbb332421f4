import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { takesTheProcessEngine, usesTestDatabase } from './uses-test-database.js';

const repository = join(import.meta.dirname, '../..');

describe('which test files choose their engines', () => {
  const root = mkdtempSync(join(tmpdir(), 'tollgate-uses-db-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (files: Record<string, string>) => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
  };
  write({
    'test/support/database.ts': 'export const url = process.env.TEST_DATABASE_URL;',
    'test/support/clock.ts': "import { x } from '../../src/x.js';",
    'src/x.ts': "import { y } from './y/index.js';",
    'src/y/index.ts': 'export const y = 1;',
    'test/a/helper.ts': "import { url } from '../support/database.js';",
    'test/a/page.tsx': "export { url } from '../support/database.js';",
    'test/a/child.ts': "import '../support/database.js';",
    'test/a/cycle-one.ts': "import './cycle-two.js';",
    'test/a/cycle-two.ts': "import './cycle-one.js';\nimport '../support/clock.js';",
  });

  it('keeps a file that reads TEST_DATABASE_URL itself', () => {
    write({ 'test/a/direct.test.ts': 'const engine = process.env.TEST_DATABASE_URL;' });
    expect(usesTestDatabase('test/a/direct.test.ts', root)).toBe(true);
  });

  it('keeps a file that reaches it through its imports, however deep, .tsx included', () => {
    write({
      'test/a/deep.test.ts': "import { helper } from './helper.js';",
      'test/a/jsx.test.ts': "import { url } from './page.js';",
      'test/a/type-only.test.ts': "import type { url } from './helper.js';",
    });
    expect(usesTestDatabase('test/a/deep.test.ts', root)).toBe(true);
    expect(usesTestDatabase('test/a/jsx.test.ts', root)).toBe(true);
    expect(usesTestDatabase('test/a/type-only.test.ts', root)).toBe(true);
  });

  it('keeps a file that starts a process by its path from the repository root', () => {
    write({
      'test/a/spawn.test.ts': "spawn(process.execPath, ['--import', 'tsx', 'test/a/child.ts']);",
    });
    expect(usesTestDatabase('test/a/spawn.test.ts', root)).toBe(true);
  });

  it('leaves out a file whose imports never reach it, through cycles and folder indexes', () => {
    write({
      'test/a/pure.test.ts':
        "import { x } from '../../src/x.js';\nimport './cycle-one.js';\nimport 'vitest';",
    });
    expect(usesTestDatabase('test/a/pure.test.ts', root)).toBe(false);
  });

  it('leaves out a file that only reads a document mentioning it', () => {
    write({
      'docs/testing.md': 'Set TEST_DATABASE_URL to run on PostgreSQL.',
      'test/a/docs.test.ts': "readFileSync(join(import.meta.dirname, '../../docs/testing.md'), 'utf8');",
    });
    expect(usesTestDatabase('test/a/docs.test.ts', root)).toBe(false);
  });

  it('keeps for the PostgreSQL run only a file that reaches it and chooses no engine itself', () => {
    write({
      'test/a/process-engine.test.ts': "import { helper } from './helper.js';",
      'test/a/loops.test.ts':
        "import { helper } from './helper.js';\nimport { ENGINES } from '../support/engines.js';",
      'test/a/loops-editions.test.ts':
        "import { helper } from './helper.js';\nimport { acrossEngines } from '../support/engines.js';",
      'test/a/once.test.ts':
        "import { helper } from './helper.js';\nimport { ANY_ENGINE } from '../support/engines.js';",
      'test/a/pure-again.test.ts': "import { x } from '../../src/x.js';",
    });
    expect(takesTheProcessEngine('test/a/process-engine.test.ts', root)).toBe(true);
    expect(takesTheProcessEngine('test/a/loops.test.ts', root)).toBe(false);
    expect(takesTheProcessEngine('test/a/loops-editions.test.ts', root)).toBe(false);
    expect(takesTheProcessEngine('test/a/once.test.ts', root)).toBe(false);
    expect(takesTheProcessEngine('test/a/pure-again.test.ts', root)).toBe(false);
  });

  it('on this repository: the app flows stay, units, the packed tarball and the public pages go', () => {
    const kept = (file: string) => usesTestDatabase(file, repository);
    expect(kept('test/browser/accessibility.test.ts')).toBe(true);
    expect(kept('test/app/reference-app.test.ts')).toBe(true);
    expect(kept('test/oidc-conformance/basic-op.test.ts')).toBe(true);
    expect(kept('test/faults/shutdown.test.ts')).toBe(true);
    expect(kept('src/oauth/stores/kysely-access-tokens.test.ts')).toBe(true);
    expect(kept('test/browser/accessibility-public.test.ts')).toBe(false);
    expect(kept('test/package/packed.test.ts')).toBe(false);
    expect(kept('test/architecture/layers.test.ts')).toBe(false);
    expect(kept('src/core/lru.test.ts')).toBe(false);
  });

  it('on this repository: no test file takes the process engine, so one run covers both engines', () => {
    const testFiles = ['src', 'test', 'app', 'packages']
      .flatMap((dir) =>
        readdirSync(join(repository, dir), { recursive: true, encoding: 'utf8' }).map((f) => join(dir, f)),
      )
      .filter((file) => /\.test\.tsx?$/.test(file) && !file.includes('node_modules'));
    expect(testFiles.length).toBeGreaterThan(200);
    expect(testFiles.filter((file) => takesTheProcessEngine(file, repository))).toEqual([]);
  });
});
