import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Users } from '../../src/auth/users.js';
import { AuditLog } from '../../src/observability/audit/audit-log.js';
import { Organizations } from '../../src/organizations/organizations.js';
import { Browser, tokenIn } from '../auth/browser.js';
import { ENGINES } from '../support/engines.js';
import { type Member, type OrganizationsTestApp, organizationsApp, PASSWORD } from './support.js';

const linkIn = (text: string) => /\/invitations\/accept\?token=([A-Za-z0-9_-]{43})/.exec(text)?.[0];

describe.each(ENGINES)('invitations by e-mail (%s)', (engine) => {
  let t: OrganizationsTestApp;
  let organizations: Organizations;
  let owner: Member;
  let id: number;

  beforeAll(async () => {
    t = await organizationsApp({ engine });
    organizations = t.app.container.make(Organizations);
    owner = await t.member('boss@example.com');
    id = (await organizations.create(owner.id, 'Acme')).id;
  });
  afterAll(() => t?.close());

  /** Invites through the page's form and returns the link from the real mailbox. */
  const invite = async (email: string, role = 'member') => {
    const before = t.mailbox.to(email).length;
    const res = await owner.send(`/organizations/${id}/invitations`, { email, role });
    expect(res.status).toBe(200);
    await t.mailbox.waitFor(email, () => t.mailbox.to(email).length > before);
    const mail = t.mailbox.to(email)[before]!;
    expect(mail.subject).toBe('boss invited you to Acme on Tollgate');
    return linkIn(mail.text ?? '')!;
  };
  const accept = (who: Member, link: string) =>
    who.send('/invitations/accept', { token: new URL(link, 'http://localhost').searchParams.get('token')! });

  it('a mailed link: the GET only shows the button (scanner-safe); the POST joins, once', async () => {
    const link = await invite('new@example.com', 'billing');
    const scanner = await new Browser(t).get(link);
    expect(scanner.status).toBe(200);
    expect(await scanner.text()).toContain('Sign in or create an account with new@example.com');
    const invitee = await t.member('new@example.com');
    const page = await invitee.get(link);
    expect(await page.text()).toContain('Accept the invitation');
    expect(await organizations.forUser(invitee.id)).toEqual([]);

    const joined = await accept(invitee, link);
    expect(joined.status).toBe(200);
    expect((await organizations.membership(invitee.id, id)).role).toBe('billing');
    const again = await accept(invitee, link);
    expect(again.status).toBe(410);
    expect((await again.json()).reason).toBe('used');
  });

  it('not signed in: sign up from the link, come back, accept', async () => {
    const link = await invite('fresh@example.com');
    const browser = new Browser(t);
    const html = await (await browser.get(link)).text();
    const register = /href="(\/register\?intended=[^"]+)"/.exec(html)![1]!.replaceAll('&amp;', '&');
    const signedUp = await browser.post(register, {
      _token: tokenIn(await (await browser.get(register)).text()),
      name: 'Fresh',
      email: 'fresh@example.com',
      password: PASSWORD,
      password_confirmation: PASSWORD,
      intended: decodeURIComponent(register.split('intended=')[1]!),
    });
    // Signing up leads to signing in (the address gets its mail either way), then back to the link.
    expect(signedUp.status).toBe(302);
    const login = signedUp.headers.get('location')!;
    expect(login).toMatch(/^\/login\?intended=%2Finvitations%2Faccept/);
    const signedIn = await browser.post(login, {
      _token: tokenIn(await (await browser.get(login)).text()),
      email: 'fresh@example.com',
      password: PASSWORD,
      intended: decodeURIComponent(login.split('intended=')[1]!),
    });
    expect(signedIn.headers.get('location')).toContain('/invitations/accept?token=');
    const confirm = await browser.get(signedIn.headers.get('location')!);
    const token = tokenIn(await confirm.text());
    const res = await browser.post('/invitations/accept', {
      _token: token,
      token: new URL(link, 'http://localhost').searchParams.get('token')!,
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/organizations/${id}`);
    const user = await t.app.container.make(Users).findByEmail('fresh@example.com');
    expect((await organizations.membership(user!.id, id)).role).toBe('member');
  });

  it('refuses an invitation for another address, without using it up', async () => {
    const link = await invite('right@example.com');
    const wrong = await t.member('wrong@example.com');
    const refused = await accept(wrong, link);
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toContain('for another e-mail address');
    expect(await organizations.forUser(wrong.id)).toEqual([]);
    expect((await accept(await t.member('right@example.com'), link)).status).toBe(200);
  });

  it('refuses to invite an existing member', async () => {
    const res = await owner.send(`/organizations/${id}/invitations`, { email: 'BOSS@example.com' });
    expect(res.status).toBe(409);
    expect((await res.json()).message).toBe('boss@example.com is already a member of this organization.');
  });

  it('revoke ends the link; resend replaces it', async () => {
    const revokedLink = await invite('gone@example.com');
    const [pending] = await pendingFor('gone@example.com');
    expect((await owner.send(`/organizations/${id}/invitations/${pending}/revoke`)).status).toBe(200);
    const gone = await t.member('gone@example.com');
    expect((await accept(gone, revokedLink)).status).toBe(410);

    const first = await invite('later@example.com');
    const [again] = await pendingFor('later@example.com');
    expect((await owner.send(`/organizations/${id}/invitations/${again}/resend`)).status).toBe(200);
    await t.mailbox.waitFor('later@example.com', () => t.mailbox.to('later@example.com').length > 1);
    const second = linkIn(t.mailbox.to('later@example.com')[1]!.text ?? '')!;
    const later = await t.member('later@example.com');
    expect((await accept(later, first)).status).toBe(410);
    expect((await accept(later, second)).status).toBe(200);
  });

  it('accepted twice at once: one membership', async () => {
    const link = await invite('twice@example.com');
    const twice = await t.member('twice@example.com');
    const other = new (twice.constructor as typeof Member)(t, twice.id, twice.email);
    for (const [k, v] of twice.cookies) other.cookies.set(k, v);
    other.token = twice.token;
    const answers = await Promise.all([accept(twice, link), accept(other, link)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 410]);
    const rows = await t.app.db
      .selectFrom('organization_members')
      .select('id')
      .where('user_id', '=', twice.id)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('writes who invited, joined, changed a role and removed to the audit log', async () => {
    const link = await invite('audited@example.com');
    const audited = await t.member('audited@example.com');
    expect((await accept(audited, link)).status).toBe(200);
    expect(
      (await owner.send(`/organizations/${id}/members/${audited.id}/role`, { role: 'admin' })).status,
    ).toBe(200);
    expect((await owner.send(`/organizations/${id}/members/${audited.id}/remove`)).status).toBe(200);
    await t.app.container.make(AuditLog).flush();
    const rows = await t.app.db
      .selectFrom('audit_events')
      .select(['kind', 'actor', 'user_id', 'subject', 'details'])
      .where('subject', '=', `organization:${id}`)
      .where((eb) => eb.or([eb('user_id', '=', audited.id), eb('details', 'like', '%audited@example.com%')]))
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.kind, r.actor, JSON.parse(r.details ?? '{}')])).toEqual([
      [
        'organization.member-invited',
        `user:${owner.id}`,
        { invitation_id: expect.any(Number), email: 'audited@example.com', role: 'member' },
      ],
      ['organization.member-added', `user:${audited.id}`, { role: 'member', invited_by: owner.id }],
      ['organization.role-changed', `user:${owner.id}`, { from: 'member', to: 'admin' }],
      ['organization.member-removed', `user:${owner.id}`, { role: 'admin' }],
    ]);
  });

  it('an invitation expires after 7 days (last: the clock moves on)', async () => {
    const link = await invite('late@example.com');
    t.clock.advance(7 * 86_400_000 + 1000);
    const expired = await accept(await t.member('late@example.com'), link);
    expect(expired.status).toBe(410);
    expect((await expired.json()).reason).toBe('expired');
  });

  async function pendingFor(email: string): Promise<number[]> {
    const rows = await t.app.db
      .selectFrom('organization_invitations')
      .select('id')
      .where('email', '=', email)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .execute();
    return rows.map((r) => r.id);
  }
});
