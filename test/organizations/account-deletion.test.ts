import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Users } from '../../src/auth/users.js';
import { MemberRemoved, OrganizationDeleted } from '../../src/organizations/events.js';
import { Organizations } from '../../src/organizations/organizations.js';
import { ENGINES } from '../support/engines.js';
import { type Member, type OrganizationsTestApp, organizationsApp, PASSWORD } from './support.js';

describe.each(ENGINES)("deleting the account of an organization's owner (%s)", (engine) => {
  let t: OrganizationsTestApp;
  let organizations: Organizations;
  const events: unknown[] = [];
  beforeAll(async () => {
    t = await organizationsApp({ engine, accounts: true });
    organizations = t.app.container.make(Organizations);
    t.app.events.listen(OrganizationDeleted, (e) => void events.push(e));
    t.app.events.listen(MemberRemoved, (e) => void events.push(e));
  });
  afterAll(() => t?.close());

  const deleteAccount = (member: Member, json = true) =>
    member.send('/account/delete', { current_password: PASSWORD }, json);
  const exists = async (userId: number) => (await t.app.container.make(Users).find(userId)) !== undefined;
  const organizationIds = async () =>
    (await t.app.db.selectFrom('organizations').select('id').execute()).map((r) => r.id);
  /** An organization of `owner`'s with `other` in it as `role`. */
  const sharedOrganization = async (owner: string, other: string, name: string, role: string) => {
    const [first, second] = [await t.member(owner), await t.member(other)];
    const organization = await organizations.create(first.id, name);
    await organizations.addMember(organization.id, second.id, role, first.id);
    return { first, second, organization };
  };

  it('is refused while the user is the last owner of an organization with other members; nothing is deleted', async () => {
    const {
      first: ada,
      second: ben,
      organization: acme,
    } = await sharedOrganization('ada@example.com', 'ben@example.com', 'Acme', 'member');
    const solo = await organizations.create(ada.id, 'Ada alone');

    const res = await deleteAccount(ada);
    expect(res.status).toBe(422);
    const { message } = (await res.json()) as { message: string };
    expect(message).toContain('Transfer ownership or delete Acme first.');
    expect(await exists(ada.id)).toBe(true);
    expect(await organizationIds()).toEqual(expect.arrayContaining([acme.id, solo.id]));
    expect((await organizations.members(acme.id)).map((m) => [m.userId, m.role])).toEqual([
      [ada.id, 'owner'],
      [ben.id, 'member'],
    ]);
    expect((await ada.get('/organizations')).status).toBe(200);
  });

  it('the account page shows the refusal without JavaScript (a plain form post)', async () => {
    const { first: cleo } = await sharedOrganization(
      'cleo@example.com',
      'dan@example.com',
      'Cleo & Co',
      'admin',
    );

    const res = await deleteAccount(cleo, false);
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toContain('text/html');
    const page = await res.text();
    expect(page).toContain('<p class="error" role="alert">');
    expect(page).toContain('Transfer ownership or delete Cleo &amp; Co first.');
    expect(await exists(cleo.id)).toBe(true);
  });

  it('deletes an organization the user is the only member of with the account, and leaves one with another owner', async () => {
    const eve = await t.member('eve@example.com');
    const fay = await t.member('fay@example.com');
    const alone = await organizations.create(eve.id, 'Eve alone');
    const shared = await organizations.create(fay.id, 'Shared');
    await organizations.addMember(shared.id, eve.id, 'owner', fay.id);
    events.length = 0;

    const res = await deleteAccount(eve);
    expect(res.status).toBe(200);
    expect(await exists(eve.id)).toBe(false);
    expect(await organizationIds()).not.toContain(alone.id);
    expect((await organizations.members(shared.id)).map((m) => [m.userId, m.role])).toEqual([
      [fay.id, 'owner'],
    ]);
    expect(events).toEqual(
      expect.arrayContaining([
        new OrganizationDeleted(alone.id, eve.id),
        new MemberRemoved(shared.id, eve.id, 'owner', eve.id),
      ]),
    );
  });

  it('a deletion and the other owner leaving at once: one is refused, an owner is left', async () => {
    const {
      first: gil,
      second: hal,
      organization,
    } = await sharedOrganization('gil@example.com', 'hal@example.com', 'Two owners', 'owner');
    const { id } = organization;
    await organizations.addMember(id, (await t.member('ivy@example.com')).id, 'member', gil.id);

    // Hal's leave counts the owners (two) and then waits a moment before it commits: the deletion
    // starting meanwhile must queue behind it on the organization's row, not count two owners too.
    const proto = organizations as unknown as { keepAnOwner: (...args: unknown[]) => Promise<void> };
    const original = proto.keepAnOwner.bind(organizations);
    let counted = () => {};
    const reached = new Promise<void>((resolve) => {
      counted = resolve;
    });
    const spy = vi.spyOn(proto, 'keepAnOwner').mockImplementation(async (...args) => {
      await original(...args);
      counted();
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    const leaving = hal.send(`/organizations/${id}/leave`);
    await reached;
    const deleting = deleteAccount(gil);
    const answers = await Promise.all([leaving, deleting]);
    spy.mockRestore();

    expect(answers.map((r) => r.status).sort()).toEqual([200, 422]);
    const owners = (await organizations.members(id)).filter((m) => m.role === 'owner');
    expect(owners.map((o) => o.userId)).toEqual([gil.id]);
    expect(await exists(gil.id)).toBe(true);
  });
});
