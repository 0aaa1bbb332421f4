import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventDispatcher } from '../../src/core/events.js';
import { ConsentGranted } from '../../src/oauth/events.js';
import { ENGINES } from '../support/engines.js';
import { ADA, approvalFields, Browser, type OAuthTestApp, oauthApp, REDIRECT } from './support.js';

const CHALLENGE = createHash('sha256').update('v'.repeat(64)).digest('base64url');

/** A double click on "Authorize": two posts of the same form at once answer the request once. */
describe.each(ENGINES)('approval double submit (%s)', (engine) => {
  let t: OAuthTestApp;
  let clientId: string;
  let browser: Browser;
  const consents: ConsentGranted[] = [];

  beforeAll(async () => {
    t = await oauthApp({ engine });
    clientId = (await t.createClient({ confidential: false })).client.id;
    t.app.container.make(EventDispatcher).listen(ConsentGranted, (event) => {
      consents.push(event);
    });
    browser = new Browser(t.url);
    await browser.login(ADA);
  });
  afterAll(async () => t.stop());

  it('issues one code and records one consent; the second post is told the request was already answered', async () => {
    const page = await browser.get(
      `/oauth/authorize?${new URLSearchParams({
        client_id: clientId,
        redirect_uri: REDIRECT,
        response_type: 'code',
        scope: 'check-status',
        state: 'twice',
        code_challenge: CHALLENGE,
        code_challenge_method: 'S256',
      })}`,
    );
    expect(page.status).toBe(200);
    const fields = approvalFields(await page.text());

    const answers = await Promise.all([
      browser.post('/oauth/authorize', fields),
      browser.post('/oauth/authorize', fields),
    ]);

    const redirected = answers.filter((res) => res.status === 302);
    expect(redirected).toHaveLength(1);
    const location = new URL(redirected[0]!.headers.get('location')!);
    expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const refused = answers.find((res) => res.status !== 302)!;
    expect(refused.status).toBe(400);
    expect(refused.headers.get('location')).toBeNull();
    expect(await refused.text()).toContain('already answered');

    const codes = await t.app.db
      .selectFrom('oauth_auth_codes')
      .where('client_id', '=', clientId)
      .selectAll()
      .execute();
    expect(codes).toHaveLength(1);
    expect(consents.filter((event) => event.clientId === clientId)).toHaveLength(1);
  });
});
