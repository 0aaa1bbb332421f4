import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt } from 'jose';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsProvider } from '../../src/accounts/provider.js';
import { Users } from '../../src/auth/users.js';
import { Mailer } from '../../src/mail/mailer.js';
import { Outbox } from '../../src/mail/outbox.js';
import { mailProvider } from '../../src/mail/provider.js';
import { BackchannelLogout } from '../../src/oauth/logout/backchannel-logout.js';
import { ClientLogout } from '../../src/oauth/logout/client-logout.js';
import { Browser, tokenIn } from '../oauth/support.js';
import { codeFlow, type Plan, startPlan } from '../oidc-conformance/support.js';
import { ENGINES } from '../support/engines.js';
import { type Mailbox, startMailbox } from '../support/mailbox.js';

const PASSWORD = 'correct horse battery';
/** Longer than any wait the worker puts between two attempts (mail.worker.maxBackoffSeconds). */
const PAST_EVERY_BACKOFF = 24 * 3600_000;

/**
 * The SMTP server stopped (connections refused) while accounts change: the mail waits in the
 * outbox and what does not depend on mail (the request, back-channel logout) goes on; once the
 * server is back every mail is sent once.
 */
describe.each(ENGINES)('the SMTP server down (%s)', (engine) => {
  let plan: Plan;
  let mailbox: Mailbox;
  let port: number;
  const logoutTokens: string[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      logoutTokens.push(new URLSearchParams(body).get('logout_token') ?? '');
      res.end();
    });
  });

  beforeAll(async () => {
    mailbox = await startMailbox();
    port = mailbox.port;
    plan = await startPlan('query', {
      engine,
      modules: [mailProvider(), accountsProvider()],
      // No polling: the test drains the outbox itself (a queued mail still wakes the worker once).
      config: { mail: { url: mailbox.url, worker: { pollMs: 0 } } },
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    await plan.t.app.container.make(ClientLogout).save(plan.client.id, {
      postLogoutRedirectUris: [],
      backchannelLogoutUri: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/backchannel`,
      backchannelLogoutSessionRequired: true,
    });
  });
  afterAll(async () => {
    receiver.close();
    await plan?.t.stop();
    await mailbox?.close();
  });

  const outbox = () => plan.t.app.container.make(Outbox);
  const mailer = () => plan.t.app.container.make(Mailer);
  /** The SMTP server stops: connections to its port are refused. */
  const smtpDown = async () => {
    await mailbox.close();
    expect(await mailer().drain()).toBe(0);
  };
  /** A new SMTP server on the same port; the worker, past its backoff, sends what waited. */
  const smtpBack = async () => {
    mailbox = await startMailbox(port);
    plan.t.clock.advance(PAST_EVERY_BACKOFF);
    return mailer().drain();
  };
  const signedInToClient = async (email: string) => {
    const browser = new Browser(plan.t.url);
    await browser.login({ email, password: PASSWORD });
    const { claims } = await codeFlow(plan, { browser });
    return { browser, sid: claims.sid as string };
  };
  const post = async (browser: Browser, path: string, fields: Record<string, string> = {}) =>
    browser.post(path, { _token: tokenIn(await (await browser.get('/account')).text()), ...fields });

  it('"sign out other sessions": the request succeeds and the logout token is delivered; the notice waits in the outbox and goes once SMTP is back, once', async () => {
    const email = 'carol@example.com';
    await plan.t.app.container.make(Users).create({ name: 'Carol', email, password: PASSWORD });
    const laptop = await signedInToClient(email);
    const phone = await signedInToClient(email);
    await mailer().drain();
    await smtpDown();
    const before = logoutTokens.length;

    expect((await post(laptop.browser, '/account/sessions/others')).status).toBe(303);
    await plan.t.app.container.make(BackchannelLogout).settled();
    expect(logoutTokens.slice(before).map((token) => decodeJwt(token).sid)).toEqual([phone.sid]);

    await mailer().drain();
    const waiting = (await outbox().list({ to: email })).filter((row) => row.kind === 'sessions-ended');
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({ status: 'pending' });
    expect(waiting[0]!.attempts).toBeGreaterThan(0);
    expect(waiting[0]!.last_error).toBeTruthy();

    expect(await smtpBack()).toBeGreaterThan(0);
    const notices = () => mailbox.to(email).filter((m) => m.subject?.includes('sessions were signed out'));
    expect(notices()).toHaveLength(1);
    expect((await outbox().find(waiting[0]!.id))?.status).toBe('sent');
    // Nothing goes twice: a later drain, past any backoff, finds nothing due.
    plan.t.clock.advance(PAST_EVERY_BACKOFF);
    expect(await mailer().drain()).toBe(0);
    expect(notices()).toHaveLength(1);
  });

  it('deleting an account: the goodbye waits in the outbox, goes once SMTP is back, and then nothing addressed to the account remains', async () => {
    const email = 'erin@example.com';
    const user = await plan.t.app.container.make(Users).create({ name: 'Erin', email, password: PASSWORD });
    const { browser } = await signedInToClient(email);
    await mailer().drain();
    await smtpDown();

    const deleted = await post(browser, '/account/delete', { current_password: PASSWORD });
    expect([deleted.status, deleted.headers.get('location')]).toEqual([303, '/login']);
    await mailer().drain();
    const waiting = await outbox().list({ to: email });
    expect(waiting.map((row) => [row.kind, row.status])).toEqual([['account-deleted', 'pending']]);

    expect(await smtpBack()).toBeGreaterThan(0);
    const goodbyes = mailbox.to(email).filter((m) => m.subject?.includes('account was deleted'));
    expect(goodbyes).toHaveLength(1);
    expect(goodbyes[0]!.text).toContain('Hello Erin');
    // Sent, then erased: no row of any table holds the address or the name any more.
    const db = plan.t.app.db;
    const tables = await db.introspection.getTables();
    const holding: string[] = [];
    for (const table of tables) {
      const rows = await db.selectFrom(sql.table(table.name).as('t')).selectAll().execute();
      const text = JSON.stringify(rows);
      if (text.includes(email) || text.includes('"Erin"')) holding.push(table.name);
    }
    expect(holding).toEqual([]);
    expect(await plan.t.app.container.make(Users).find(user.id)).toBeUndefined();
    plan.t.clock.advance(PAST_EVERY_BACKOFF);
    expect(await mailer().drain()).toBe(0);
    expect(mailbox.to(email)).toHaveLength(1);
  });
});
