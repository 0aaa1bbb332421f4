import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/observability/audit/audit-log.js';
import { Organizations } from '../../src/organizations/organizations.js';
import { ENGINES } from '../support/engines.js';
import { type Member, type OrganizationsTestApp, organizationsApp } from './support.js';

describe.each(ENGINES)('joining an organization by verified e-mail domain (%s)', (engine) => {
  let t: OrganizationsTestApp;
  let organizations: Organizations;
  let owner: Member;
  let acme: number;

  beforeAll(async () => {
    t = await organizationsApp({ accounts: true, engine });
    organizations = t.app.container.make(Organizations);
    owner = await t.member('olivia@acme.com');
    acme = (await organizations.create(owner.id, 'Acme')).id;
  });
  afterAll(() => t?.close());

  const verify = (member: Member) =>
    t.app.db
      .updateTable('users')
      .set({ email_verified_at: t.clock.now().toISOString() })
      .where('id', '=', member.id)
      .execute();
  const joinable = async (member: Member) =>
    ((await (await member.json('GET', '/organizations')).json()) as { joinable: { name: string }[] })
      .joinable;
  const roleOf = async (member: Member) =>
    (
      await t.app.db
        .selectFrom('organization_members')
        .select('role')
        .where('organization_id', '=', acme)
        .where('user_id', '=', member.id)
        .executeTakeFirst()
    )?.role;

  it('an owner sets only the domain of their own verified address; other roles may not set it', async () => {
    const unverified = await owner.send(`/organizations/${acme}/domain`, { domain: 'acme.com' });
    expect(unverified.status).toBe(422);
    expect((await unverified.json()).message).toBe(
      'Only the domain of your own verified address can let people join: verify an address at acme.com first.',
    );
    await verify(owner);
    const other = await owner.send(`/organizations/${acme}/domain`, { domain: 'globex.com' });
    expect(other.status).toBe(422);
    expect((await owner.send(`/organizations/${acme}/domain`, { domain: 'not a domain' })).status).toBe(422);
    const set = await owner.send(`/organizations/${acme}/domain`, { domain: ' @ACME.com ' });
    expect(set.status).toBe(200);
    expect((await set.json()).message).toBe('Anyone with a verified address at acme.com may now join.');

    const admin = await t.member('adam@acme.com');
    await verify(admin);
    await organizations.addMember(acme, admin.id, 'admin', owner.id);
    expect((await admin.send(`/organizations/${acme}/domain`, { domain: '' })).status).toBe(403);
    const row = await t.app.db
      .selectFrom('organizations')
      .select('auto_join_domain')
      .where('id', '=', acme)
      .executeTakeFirst();
    expect(row?.auto_join_domain).toBe('acme.com');
  });

  it('a verified address at the domain is offered the organization and joins as a member, audited; an unverified one never joins', async () => {
    const carol = await t.member('carol@Acme.com');
    expect(await joinable(carol)).toEqual([]);
    const refused = await carol.send(`/organizations/${acme}/join`);
    expect(refused.status).toBe(403);
    expect(await roleOf(carol)).toBeUndefined();

    await verify(carol);
    expect(await joinable(carol)).toEqual([{ id: acme, name: 'Acme' }]);
    const page = await (await carol.get('/organizations')).text();
    expect(page).toContain('Join Acme');
    const joined = await carol.send(`/organizations/${acme}/join`);
    expect(joined.status).toBe(200);
    expect((await joined.json()).message).toBe('You joined Acme.');
    expect(await roleOf(carol)).toBe('member');
    expect(await joinable(carol)).toEqual([]);
    expect((await carol.send(`/organizations/${acme}/join`)).status).toBe(409);

    await t.app.container.make(AuditLog).flush();
    const rows = await t.app.db
      .selectFrom('audit_events')
      .select(['kind', 'actor', 'details'])
      .where('subject', '=', `organization:${acme}`)
      .orderBy('id')
      .execute();
    const events = rows.map((r) => [r.kind, r.actor, JSON.parse(r.details ?? '{}')]);
    expect(events).toContainEqual([
      'organization.member-added',
      `user:${carol.id}`,
      { role: 'member', invited_by: carol.id, via: 'domain' },
    ]);
    expect(events).toContainEqual([
      'organization.auto-join-changed',
      `user:${owner.id}`,
      { domain: 'acme.com' },
    ]);
  });

  it('another domain, or a domain turned off, is 404', async () => {
    const eve = await t.member('eve@globex.com');
    await verify(eve);
    expect(await joinable(eve)).toEqual([]);
    expect((await eve.send(`/organizations/${acme}/join`)).status).toBe(404);

    expect((await owner.send(`/organizations/${acme}/domain`, { domain: '' })).status).toBe(200);
    const dan = await t.member('dan@acme.com');
    await verify(dan);
    expect(await joinable(dan)).toEqual([]);
    expect((await dan.send(`/organizations/${acme}/join`)).status).toBe(404);
    expect(await roleOf(dan)).toBeUndefined();
  });
});
