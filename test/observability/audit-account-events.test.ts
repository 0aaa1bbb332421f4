import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsProvider } from '../../src/accounts/provider.js';
import { codeAt } from '../../src/accounts/two-factor/totp.js';
import { authProvider } from '../../src/auth/provider.js';
import { Users } from '../../src/auth/users.js';
import { mailProvider } from '../../src/mail/provider.js';
import { installKeys, oauthProvider } from '../../src/oauth/index.js';
import { AuditLog } from '../../src/observability/audit/audit-log.js';
import { observabilityProvider } from '../../src/observability/provider.js';
import { Browser, tokenIn } from '../auth/browser.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { ENGINES } from '../support/engines.js';
import { type Mailbox, startMailbox } from '../support/mailbox.js';

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a brand new passphrase';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

describe.each(ENGINES)('audited account events, each exactly once (%s)', (engine) => {
  let t: TestApp;
  let mailbox: Mailbox;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    mailbox = await startMailbox();
    t = await createTestApp({
      engine,
      config: { mail: { url: mailbox.url, worker: { pollMs: 100 } } },
      providers: [
        observabilityProvider(),
        authProvider(),
        mailProvider(),
        oauthProvider(),
        accountsProvider(),
      ],
      setup: (app) => {
        installKeys(app.config.storagePath, app.config.oauth.signingAlgorithm);
      },
    });
    const users = t.app.container.make(Users);
    for (const name of ['ada', 'bob', 'cy', 'dee', 'eve'])
      ids[name] = (await users.create({ name, email: `${name}@example.com`, password: PASSWORD })).id;
  });
  afterAll(async () => {
    await t?.close();
    await mailbox?.close();
  });

  /** The user's audit rows of `kind`, oldest first. */
  const rows = async (kind: string, userId?: number | null) => {
    await t.app.container.make(AuditLog).flush();
    let q = t.app.db.selectFrom('audit_events').selectAll().where('kind', '=', kind);
    if (userId !== undefined)
      q = userId === null ? q.where('user_id', 'is', null) : q.where('user_id', '=', userId);
    return q.orderBy('id').execute();
  };
  const signIn = async (email: string, password = PASSWORD) => {
    const b = new Browser(t);
    const token = await b.csrfToken('/login');
    expect(
      (await b.post('/login', { _token: token, email, password }, { 'user-agent': FIREFOX })).status,
    ).toBe(302);
    return b;
  };

  it('a sign-in is audited once with its method and browser; failed ones each once, under the account they name', async () => {
    await signIn('ada@example.com');
    const ok = await rows('sign-in.succeeded', ids.ada);
    expect(ok).toHaveLength(1);
    expect(ok[0]).toMatchObject({
      actor: `user:${ids.ada}`,
      user_agent: FIREFOX,
      details: '{"method":"pwd"}',
    });
    expect(ok[0]!.request_id).toMatch(/^[0-9a-f-]{36}$/);

    const b = new Browser(t);
    const token = await b.csrfToken('/login');
    const wrong = { _token: token, email: 'ada@example.com', password: 'not it' };
    const answers = await Promise.all([b.post('/login', wrong), b.post('/login', wrong)]);
    expect(answers.map((r) => r.status)).toEqual([422, 422]);
    const failed = await rows('sign-in.failed', ids.ada);
    expect(failed).toHaveLength(2);
    expect(failed[0]).toMatchObject({ actor: 'anonymous', subject: 'email:ada@example.com' });
    expect(JSON.parse(failed[0]!.details!)).toEqual({ method: 'pwd', reason: 'credentials' });
    expect(failed[0]!.details).not.toContain('not it');

    await b.post('/login', { _token: token, email: 'nobody@example.com', password: 'x' });
    expect(await rows('sign-in.failed', null)).toHaveLength(1);
  });

  it('a double-clicked password change is audited as often as the password changed', async () => {
    const cy = await signIn('cy@example.com');
    const token = tokenIn(await (await cy.get('/account')).text());
    const fields = {
      _token: token,
      current_password: PASSWORD,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    };
    const answers = await Promise.all([
      cy.post('/account/password', fields),
      cy.post('/account/password', fields),
    ]);
    const changed = answers.filter((r) => r.status === 303).length;
    expect(changed).toBeGreaterThanOrEqual(1);
    const audited = await rows('password.changed', ids.cy);
    expect(audited).toHaveLength(changed);
    expect(JSON.parse(audited[0]!.details!)).toEqual({ via: 'account' });
  });

  it('an e-mail change confirmed twice at once is audited once', async () => {
    const bob = await signIn('bob@example.com');
    const asked = await bob.post('/account/email', {
      _token: tokenIn(await (await bob.get('/account')).text()),
      email: 'bob.new@example.com',
      current_password: PASSWORD,
    });
    expect(asked.status).toBe(303);
    await mailbox.waitFor('bob.new@example.com', () => mailbox.to('bob.new@example.com').length > 0);
    const [, path, token] = /http:\/\/localhost(\/account\/email\/confirm\?token=([\w-]+))/.exec(
      mailbox.to('bob.new@example.com')[0]!.text ?? '',
    )!;
    const form = tokenIn(await (await bob.get(path!)).text());
    await Promise.all([
      bob.post('/account/email/confirm', { _token: form, token: token! }),
      bob.post('/account/email/confirm', { _token: form, token: token! }),
    ]);
    const audited = await rows('email.changed', ids.bob);
    expect(audited).toHaveLength(1);
    expect(JSON.parse(audited[0]!.details!)).toEqual({ from: 'bob@example.com', to: 'bob.new@example.com' });
  });

  it('signing out the other sessions is audited once, with how many ended', async () => {
    const laptop = await signIn('dee@example.com');
    await signIn('dee@example.com');
    const token = tokenIn(await (await laptop.get('/account')).text());
    expect((await laptop.post('/account/sessions/others', { _token: token })).status).toBe(303);
    const audited = await rows('sessions.ended', ids.dee);
    expect(audited).toHaveLength(1);
    expect(JSON.parse(audited[0]!.details!)).toEqual({ ended: 1 });
  });

  it('two-factor sign-in: on (confirm posted twice: once), new codes, a sign-in with both steps, off: each once', async () => {
    const eve = await signIn('eve@example.com');
    const form = async (page: string) => tokenIn(await (await eve.get(page)).text());
    expect((await eve.post('/account/two-factor', { _token: await form('/account') })).status).toBe(303);
    const setup = await (await eve.get('/account/two-factor/setup')).text();
    const seed = /<code id="totp-key">([^<]+)<\/code>/.exec(setup)![1]!.replace(/ /g, '');
    const confirm = { _token: tokenIn(setup), code: codeAt(seed, t.clock.now()) };
    await Promise.all([
      eve.post('/account/two-factor/confirm', confirm),
      eve.post('/account/two-factor/confirm', confirm),
    ]);
    expect(await rows('two-factor.enabled', ids.eve)).toHaveLength(1);
    expect(
      (await eve.post('/account/two-factor/recovery-codes', { _token: await form('/account') })).status,
    ).toBe(200);
    expect(await rows('two-factor.recovery-codes-regenerated', ids.eve)).toHaveLength(1);

    t.clock.advance(30_000);
    const again = new Browser(t);
    const step = await again.post('/login', {
      _token: await again.csrfToken('/login'),
      email: 'eve@example.com',
      password: PASSWORD,
    });
    expect(step.headers.get('location')).toBe('/login/two-factor');
    const code = { _token: await again.csrfToken('/login/two-factor'), code: codeAt(seed, t.clock.now()) };
    expect((await again.post('/login/two-factor', code)).status).toBe(302);
    const signIns = await rows('sign-in.succeeded', ids.eve);
    expect(signIns.map((r) => JSON.parse(r.details!).method)).toEqual(['pwd', 'pwd+otp']);

    expect(
      (
        await again.post('/account/two-factor/disable', {
          _token: tokenIn(await (await again.get('/account')).text()),
        })
      ).status,
    ).toBe(303);
    expect(await rows('two-factor.disabled', ids.eve)).toHaveLength(1);
  });

  it('the security log page shows the user their own events only, without any script, linked from the account page', async () => {
    const ada = await signIn('ada@example.com');
    const account = await (await ada.get('/account')).text();
    expect(account).toContain('<a href="/account/security-log">Security log</a>');
    const res = await ada.get('/account/security-log');
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).not.toContain('<script');
    expect(page).toContain('Signed in');
    expect(page).toContain('Failed sign-in attempt');
    expect(page).toContain('Firefox on Linux');
    // Bob's and Cy's events are theirs alone.
    expect(page).not.toContain('E-mail address changed');
    expect(page).not.toContain('Password changed');
    const own =
      (await rows('sign-in.succeeded', ids.ada)).length + (await rows('sign-in.failed', ids.ada)).length;
    expect(page.match(/<tr>/g)!.length - 1).toBe(own);

    expect((await new Browser(t).get('/account/security-log')).status).toBe(302);
  });

  it('older events are a link away, a page of 50 at a time', async () => {
    const log = t.app.container.make(AuditLog);
    for (let i = 0; i < 60; i++) log.record({ kind: 'sign-out', userId: ids.dee });
    const dee = await signIn('dee@example.com', PASSWORD);
    const first = await (await dee.get('/account/security-log')).text();
    expect(first.match(/<tr>/g)!.length - 1).toBe(50);
    const older = /href="(\/account\/security-log\?before=[^"]+)"/.exec(first)![1]!;
    const second = await (await dee.get(older)).text();
    // 60 sign-outs, the 2 sign-ins and the sessions ended of the test before, and this sign-in.
    expect(second.match(/<tr>/g)!.length - 1).toBe(60 + 2 + 1 + 1 - 50);
    expect(second).not.toContain('Older events');
  });
});
