import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANY_ENGINE } from '../support/engines.js';
import { ADA, type OAuthTestApp, oauthApp } from './support.js';

const run = promisify(execFile);

/** The shell script under `<!-- openid-curl-script -->` in docs/oauth.md. */
function documentedScript(): string {
  const doc = readFileSync(join(import.meta.dirname, '../../docs/oauth.md'), 'utf8');
  const after = doc.slice(doc.indexOf('<!-- openid-curl-script -->'));
  const block = /```sh\n([\s\S]*?)```/.exec(after);
  if (!block) throw new Error('docs/oauth.md has no script after <!-- openid-curl-script -->');
  return block[1]!;
}

/** docs/oauth.md's OpenID Connect walk-through, run as written with curl against a real server. */
describe(`OpenID Connect: the documented curl session works`, () => {
  let t: OAuthTestApp;

  beforeAll(async () => {
    t = await oauthApp({ engine: ANY_ENGINE });
  });
  afterAll(async () => t.stop());

  it('logs in, approves, gets an ID token with the nonce it sent, and reads userinfo', async () => {
    const { client } = await t.createClient({ confidential: false });
    // Twice: the second run finds the approval given and gets its code without the page.
    for (let round = 0; round < 2; round++) {
      const { stdout } = await run('bash', ['-c', documentedScript()], {
        env: { ...process.env, BASE: t.url, CLIENT_ID: client.id },
      });
      const nonce = /nonce sent: (\w+)/.exec(stdout)?.[1];
      const claims = JSON.parse(/ID token claims: (.*)/.exec(stdout)![1]!);
      expect(claims).toMatchObject({ sub: String(t.ada.id), aud: client.id, nonce, email: ADA.email });
      const userinfo = JSON.parse(/userinfo: (.*)/.exec(stdout)![1]!);
      expect(userinfo).toEqual({
        sub: String(t.ada.id),
        name: ADA.name,
        email: ADA.email,
        email_verified: false,
        updated_at: expect.any(Number),
      });
    }
  });
});
