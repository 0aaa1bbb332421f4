import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADA, type ProtectionApp, protectionApp } from '../protection/support.js';
import { ENGINES } from '../support/engines.js';

const run = promisify(execFile);

/** The shell script under `<!-- api-keys-curl-script -->` in docs/api-keys.md. */
function documentedScript(): string {
  const doc = readFileSync(join(import.meta.dirname, '../../docs/api-keys.md'), 'utf8');
  const block = /```sh\n([\s\S]*?)```/.exec(doc.slice(doc.indexOf('<!-- api-keys-curl-script -->')));
  if (!block) throw new Error('docs/api-keys.md has no script after <!-- api-keys-curl-script -->');
  return block[1]!;
}

/** docs/api-keys.md's curl round, run as written against a real server. */
describe.each(ENGINES)('API keys: the documented curl session works (%s)', (engine) => {
  let t: ProtectionApp;

  beforeAll(async () => {
    t = await protectionApp({ engine });
  });
  afterAll(async () => t.stop());

  it('signs in, creates a key, uses it (Bearer, X-API-Key), is refused a scope and a typo, revokes it', async () => {
    const { stdout } = await run('bash', ['-c', documentedScript()], {
      env: { ...process.env, BASE: t.url, EMAIL: ADA.email, PASSWORD: ADA.password },
    });
    const listed = JSON.parse(/listed: (.*)/.exec(stdout)![1]!) as { name: string; hint: string }[];
    expect(listed).toEqual([
      expect.objectContaining({ name: 'billing sync', hint: expect.stringMatching(/^tg_test_…/) }),
    ]);
    const lines = Object.fromEntries(
      [...stdout.matchAll(/^([a-z ]+): (\d{3})$/gm)].map((m) => [m[1], Number(m[2])]),
    );
    expect(lines).toEqual({
      bearer: 200,
      header: 200,
      'missing scope': 403,
      mistyped: 401,
      revoke: 204,
      'after revoke': 401,
    });
  });
});
