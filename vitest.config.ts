import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = fileURLToPath(new URL('./src/', import.meta.url));
const sandbox = fileURLToPath(new URL('./packages/sandbox/src/', import.meta.url));

const include = [
  'src/**/*.test.ts',
  'src/**/*.test.tsx',
  'test/**/*.test.ts',
  'app/**/*.test.ts',
  'packages/*/test/**/*.test.ts',
];
const testFiles = ['src', 'test', 'app', 'packages']
  .flatMap((dir) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((file) => join(dir, file)))
  .filter((file) => /\.test\.tsx?$/.test(file) && !file.includes('node_modules'));
// A file that replaces a module (`vi.mock`) needs a module graph of its own; every other file
// shares its worker's loaded modules with the files before it (`isolate: false`), which halves
// the suite's time: a fresh fork importing the whole application cost more than most files' tests.
// Each file still gets its own database, Redis prefix and application instances.
const mocking = testFiles.filter((file) => /\bvi\.(do)?mock\(/.test(readFileSync(file, 'utf8')));

export default defineConfig({
  // The packages' own entry points (`tollgate`, `tollgate/oauth`, `@tollgate/sandbox/stripe`, …) resolve to
  // the sources in tests, as tsconfig's `paths` does for tsc and tsx; consumers get `dist/` through
  // package.json's `exports`.
  resolve: {
    alias: [
      { find: /^@tollgate\/sandbox$/, replacement: `${sandbox}index.ts` },
      { find: /^@tollgate\/sandbox\/(.+)$/, replacement: `${sandbox}$1/index.ts` },
      { find: /^tollgate$/, replacement: `${src}index.ts` },
      { find: /^tollgate\/(.+)$/, replacement: `${src}$1/index.ts` },
    ],
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file gets its own database; files run in parallel. Vitest's default is one worker fewer
    // than the cores, which on a 2-core CI machine is one: the files ran one after another (1148 s of
    // wall time for 1120 s of tests), though most of their time is spent waiting on sockets, child
    // processes and Chromium, not on the CPU.
    pool: 'forks',
    maxWorkers: Math.max(2, availableParallelism() - 1),
    setupFiles: ['test/support/restore-env.ts', 'test/support/isolate-redis.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'shared', include, exclude: mocking, isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: mocking, isolate: true } },
    ],
  },
});
