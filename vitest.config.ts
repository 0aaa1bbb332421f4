import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = fileURLToPath(new URL('./src/', import.meta.url));
const sandbox = fileURLToPath(new URL('./packages/sandbox/src/', import.meta.url));

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
    include: [
      'src/**/*.test.ts',
      'src/**/*.test.tsx',
      'test/**/*.test.ts',
      'app/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file gets its own database; files run in parallel on the two cores.
    pool: 'forks',
    setupFiles: ['test/support/isolate-redis.ts'],
  },
});
