import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../core/errors.js';
import { importSandbox, loadStripeSandbox } from './sandbox-package.js';

/** The error plain Node gives for `import(specifier)` in a folder holding only `files`. */
function nodeImportError(specifier: string, files: Record<string, string> = {}): Error {
  const empty = mkdtempSync(join(tmpdir(), 'tollgate-no-sandbox-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(empty, path, '..'), { recursive: true });
      writeFileSync(join(empty, path), text);
    }
    const script = `try { await import(${JSON.stringify(specifier)}) } catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message })) }`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: empty,
      encoding: 'utf8',
    });
    const { code, message } = JSON.parse(out) as { code: string; message: string };
    return Object.assign(new Error(message), { code });
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
}

describe('the optional @tollgate/sandbox package', () => {
  it('loads when installed (a workspace of this repository)', async () => {
    const { createStripeSandbox } = await loadStripeSandbox();
    expect(typeof createStripeSandbox).toBe('function');
  });

  it('not installed: fails with what to install or configure instead', async () => {
    const missing = nodeImportError('@tollgate/sandbox/stripe');
    const failure = importSandbox(() => Promise.reject(missing), 'install it, or set STRIPE_SECRET');
    await expect(failure).rejects.toThrow(ConfigurationError);
    await expect(failure).rejects.toThrow('install it, or set STRIPE_SECRET');
  });

  it('installed but broken inside (a dependency of its own missing): the original error, not "install it"', async () => {
    const inner = nodeImportError('@tollgate/sandbox/stripe', {
      'node_modules/@tollgate/sandbox/package.json': JSON.stringify({
        name: '@tollgate/sandbox',
        type: 'module',
        exports: { './stripe': './stripe.js' },
      }),
      'node_modules/@tollgate/sandbox/stripe.js': "import 'qs-not-installed';",
    });
    expect(inner.message).toMatch(/'qs-not-installed' imported from .*@tollgate\/sandbox/);
    await expect(importSandbox(() => Promise.reject(inner), 'install it')).rejects.toBe(inner);
  });
});
