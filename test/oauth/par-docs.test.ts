import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANY_ENGINE } from '../support/engines.js';
import { type OAuthTestApp, oauthApp } from './support.js';

const run = promisify(execFile);

/** The shell script under `<!-- par-curl-script -->` in docs/oauth.md. */
function documentedScript(): string {
  const doc = readFileSync(join(import.meta.dirname, '../../docs/oauth.md'), 'utf8');
  const block = /```sh\n([\s\S]*?)```/.exec(doc.slice(doc.indexOf('<!-- par-curl-script -->')));
  if (!block) throw new Error('docs/oauth.md has no script after <!-- par-curl-script -->');
  return block[1]!;
}

/** docs/oauth.md's PAR walk-through, run as written with curl against a real server. */
describe(`pushed authorization requests: the documented curl session works`, () => {
  let t: OAuthTestApp;

  beforeAll(async () => {
    t = await oauthApp({ engine: ANY_ENGINE });
  });
  afterAll(async () => t.stop());

  it('pushes, approves through the request_uri, gets tokens, and the replay is refused', async () => {
    const { client } = await t.createClient({
      confidential: false,
      requirePushedAuthorizationRequests: true,
    });
    const { stdout } = await run('bash', ['-c', documentedScript()], {
      env: { ...process.env, BASE: t.url, CLIENT_ID: client.id },
    });
    const pushed = JSON.parse(/pushed: (.*)/.exec(stdout)![1]!);
    expect(pushed).toEqual({
      request_uri: expect.stringMatching(/^urn:ietf:params:oauth:request_uri:/),
      expires_in: 60,
    });
    const tokens = JSON.parse(/tokens: (.*)/.exec(stdout)![1]!);
    expect(tokens).toMatchObject({ token_type: 'Bearer', scope: 'check-status' });
    expect(/replay: (\d+)/.exec(stdout)![1]).toBe('400');
  });
});
