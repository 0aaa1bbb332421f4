import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLocalJWKSet, decodeJwt, type JSONWebKeySet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsProvider } from '../../src/accounts/provider.js';
import { Users } from '../../src/auth/users.js';
import { mailProvider } from '../../src/mail/provider.js';
import { BackchannelLogout } from '../../src/oauth/logout/backchannel-logout.js';
import { ClientLogout } from '../../src/oauth/logout/client-logout.js';
import { ISSUER } from '../oauth/openid-support.js';
import { Browser, tokenIn } from '../oauth/support.js';
import { codeFlow, type Plan, startPlan } from '../oidc-conformance/support.js';
import { ANY_ENGINE } from '../support/engines.js';
import { type Mailbox, startMailbox } from '../support/mailbox.js';

const PASSWORD = 'correct horse battery';
const NEW = 'tr0ub4dor and three';
const RESET_LINK = /\/reset-password\?token=([\w-]+)/;

/**
 * Back-Channel Logout 1.0 §2: a login session that ends at the OP ends at the clients authorized in
 * it — also when the account ends it for the user, not only when they log out themselves.
 */
describe('back-channel logout when sessions end for the user (reset, "sign out other sessions", deletion)', () => {
  let plan: Plan;
  let mailbox: Mailbox;
  const received: string[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push(new URLSearchParams(body).get('logout_token') ?? '');
      res.end();
    });
  });

  /** A browser signed in as `email` that got an ID token for the plan's client: its `sid`. */
  const signedInToClient = async (email: string, password = PASSWORD) => {
    const browser = new Browser(plan.t.url);
    await browser.login({ email, password });
    const { claims } = await codeFlow(plan, { browser });
    return { browser, sid: claims.sid as string, sub: claims.sub };
  };
  const post = async (browser: Browser, path: string, fields: Record<string, string> = {}) =>
    browser.post(path, { _token: tokenIn(await (await browser.get('/account')).text()), ...fields });
  /** The sids of the logout tokens received since `before`, once every delivery is made. */
  const sidsSince = async (before: number) => {
    await plan.t.app.container.make(BackchannelLogout).settled();
    return received.slice(before).map((token) => decodeJwt(token).sid);
  };

  beforeAll(async () => {
    mailbox = await startMailbox();
    plan = await startPlan('query', {
      engine: ANY_ENGINE,
      modules: [mailProvider(), accountsProvider()],
      config: {
        mail: { url: mailbox.url, worker: { pollMs: 100 } },
        accounts: { passwordReset: { answerMs: 0 } },
      },
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    await plan.t.app.container.make(ClientLogout).save(plan.client.id, {
      postLogoutRedirectUris: [],
      backchannelLogoutUri: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/backchannel`,
      backchannelLogoutSessionRequired: true,
    });
    const users = plan.t.app.container.make(Users);
    for (const email of ['carol@example.com', 'dan@example.com', 'eve@example.com', 'fay@example.com'])
      await users.create({ name: email.split('@')[0]!, email, password: PASSWORD });
  });
  afterAll(async () => {
    receiver.close();
    await plan?.t.stop();
    await mailbox?.close();
  });

  it('"sign out other sessions" sends a signed logout token for each ended session, none for the one kept', async () => {
    const laptop = await signedInToClient('carol@example.com');
    const phone = await signedInToClient('carol@example.com');
    const before = received.length;
    expect((await post(laptop.browser, '/account/sessions/others')).status).toBe(303);
    expect(await sidsSince(before)).toEqual([phone.sid]);

    const jwks = (await (await fetch(`${plan.t.url}/oauth/jwks`)).json()) as JSONWebKeySet;
    const { payload } = await jwtVerify(received.at(-1)!, createLocalJWKSet(jwks), {
      issuer: ISSUER,
      audience: plan.client.id,
      currentDate: plan.t.clock.now(),
      typ: 'logout+jwt',
    });
    expect(payload).toMatchObject({
      sub: phone.sub,
      sid: phone.sid,
      events: { 'http://schemas.openid.net/event/backchannel-logout': {} },
    });
  });

  it('a password change on the account page ends the other sessions at their clients too', async () => {
    const laptop = await signedInToClient('fay@example.com');
    const phone = await signedInToClient('fay@example.com');
    const before = received.length;
    const changed = await post(laptop.browser, '/account/password', {
      current_password: PASSWORD,
      password: NEW,
      password_confirmation: NEW,
    });
    expect(changed.status).toBe(303);
    expect(await sidsSince(before)).toEqual([phone.sid]);
  });

  it('a password reset ends every session of the user at its clients', async () => {
    const first = await signedInToClient('dan@example.com');
    const second = await signedInToClient('dan@example.com');
    const before = received.length;
    const visitor = new Browser(plan.t.url);
    const asked = await visitor.post('/forgot-password', {
      _token: tokenIn(await (await visitor.get('/forgot-password')).text()),
      email: 'dan@example.com',
    });
    expect(asked.status).toBe(303);
    const mail = await mailbox.waitFor('dan@example.com', (m) => RESET_LINK.test(m.text ?? ''));
    const token = RESET_LINK.exec(mail.text ?? '')![1]!;
    const reset = await visitor.post('/reset-password', {
      _token: tokenIn(await (await visitor.get(`/reset-password?token=${token}`)).text()),
      token,
      password: NEW,
      password_confirmation: NEW,
    });
    expect(reset.status).toBe(303);
    expect((await sidsSince(before)).sort()).toEqual([first.sid, second.sid].sort());
  });

  it("deleting the account ends every session at its clients, the deleting browser's included", async () => {
    const other = await signedInToClient('eve@example.com');
    const deleting = await signedInToClient('eve@example.com');
    const before = received.length;
    const deleted = await post(deleting.browser, '/account/delete', { current_password: PASSWORD });
    expect([deleted.status, deleted.headers.get('location')]).toEqual([303, '/login']);
    expect((await sidsSince(before)).sort()).toEqual([other.sid, deleting.sid].sort());
    // The sessions were taken once: nothing is sent again.
    expect(await sidsSince(received.length)).toEqual([]);
  });
});
