import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAST_OWNER } from '../../src/organizations/errors.js';
import { Organizations } from '../../src/organizations/organizations.js';
import { ENGINES } from '../support/engines.js';
import { type OrganizationsTestApp, organizationsApp } from './support.js';

describe.each(ENGINES)('organizations: create, rename, delete, roles, owners (%s)', (engine) => {
  let t: OrganizationsTestApp;
  let organizations: Organizations;
  beforeAll(async () => {
    t = await organizationsApp({ engine, roles: (roles) => roles.grant('member', 'reports.read') });
    organizations = t.app.container.make(Organizations);
  });
  afterAll(() => t?.close());

  const create = async (owner: Awaited<ReturnType<OrganizationsTestApp['member']>>, name: string) => {
    const res = await owner.send('/organizations', { name });
    expect(res.status).toBe(200);
    return ((await res.json()) as { id: number }).id;
  };
  const roleOf = async (id: number, userId: number) =>
    (await organizations.members(id)).find((m) => m.userId === userId)?.role;

  it('a personal account works without any organization', async () => {
    const solo = await t.member('solo@example.com');
    const page = await solo.get('/organizations');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('You are not in any organization.');
    expect(await (await solo.get('/organizations', { accept: 'application/json' })).json()).toEqual({
      data: [],
      joinable: [],
    });
  });

  it('the organization page links only to the pages that are on: the audit log, and no usage page without plans', async () => {
    const owner = await t.member('links-owner@example.com');
    const id = await create(owner, 'Linked');
    const html = await (await owner.get(`/organizations/${id}`)).text();
    // The owner's role has audit.view and usage.view; this app has observability and no plans.
    expect(html).toContain(`<a href="/organizations/${id}/audit">Audit log</a>`);
    expect(html).not.toContain(`/organizations/${id}/usage`);
    expect((await owner.get(`/organizations/${id}/usage`)).status).toBe(404);
  });

  it('creates an organization with its creator as owner; renames; refuses a blank name', async () => {
    const ada = await t.member('ada@example.com');
    const id = await create(ada, '  Acme  ');
    expect(await (await ada.get('/organizations', { accept: 'application/json' })).json()).toEqual({
      data: [{ id, name: 'Acme', role: 'owner' }],
      joinable: [],
    });
    const blank = await ada.send('/organizations', { name: '   ' });
    expect(blank.status).toBe(422);
    expect((await blank.json()).errors.name).toEqual(['The name field is required.']);
    expect((await ada.send(`/organizations/${id}`, { name: 'Acme Inc.' })).status).toBe(200);
    expect((await organizations.membership(ada.id, id)).organization.name).toBe('Acme Inc.');
  });

  it("answers 404 for an organization one is not in, and 403 for what one's role does not allow", async () => {
    const owner = await t.member('owner1@example.com');
    const outsider = await t.member('outsider@example.com');
    const plain = await t.member('plain@example.com');
    const id = await create(owner, 'Globex');
    await organizations.addMember(id, plain.id, 'member', owner.id);

    expect((await outsider.get(`/organizations/${id}`)).status).toBe(404);
    expect((await outsider.send(`/organizations/${id}`, { name: 'Mine' })).status).toBe(404);
    expect((await outsider.get('/organizations/not-an-id')).status).toBe(404);
    const rename = await plain.send(`/organizations/${id}`, { name: 'Mine' });
    expect(rename.status).toBe(403);
    expect((await rename.json()).message).toBe(
      'Your role in this organization does not allow you to rename it.',
    );
    expect((await plain.send(`/organizations/${id}/delete`)).status).toBe(403);
    expect((await plain.send(`/organizations/${id}/members/${owner.id}/remove`)).status).toBe(403);
    // The application's own permission, granted to members at register time.
    expect(organizations.roles.can('member', 'reports.read')).toBe(true);
    expect(organizations.roles.can('member', 'members.invite')).toBe(false);
  });

  it('an admin cannot touch an owner; an owner changes roles; an unknown role is refused', async () => {
    const owner = await t.member('owner2@example.com');
    const admin = await t.member('admin2@example.com');
    const bob = await t.member('bob2@example.com');
    const id = await create(owner, 'Initech');
    await organizations.addMember(id, admin.id, 'admin', owner.id);
    await organizations.addMember(id, bob.id, 'member', owner.id);

    expect(
      (await admin.send(`/organizations/${id}/members/${bob.id}/role`, { role: 'billing' })).status,
    ).toBe(200);
    expect(await roleOf(id, bob.id)).toBe('billing');
    expect((await admin.send(`/organizations/${id}/members/${bob.id}/role`, { role: 'owner' })).status).toBe(
      403,
    );
    expect((await admin.send(`/organizations/${id}/members/${owner.id}/remove`)).status).toBe(403);
    expect(
      (await admin.send(`/organizations/${id}/members/${bob.id}/role`, { role: 'emperor' })).status,
    ).toBe(422);
    expect((await admin.send(`/organizations/${id}/members/${bob.id}/remove`)).status).toBe(200);
    expect(await roleOf(id, bob.id)).toBeUndefined();
  });

  it('keeps one owner: the last cannot leave or step down; transferring makes the old owner an admin', async () => {
    const owner = await t.member('owner3@example.com');
    const next = await t.member('next3@example.com');
    const id = await create(owner, 'Umbrella');
    await organizations.addMember(id, next.id, 'member', owner.id);

    const leave = await owner.send(`/organizations/${id}/leave`);
    expect(leave.status).toBe(409);
    expect((await leave.json()).message).toBe(LAST_OWNER);
    expect(
      (await owner.send(`/organizations/${id}/members/${owner.id}/role`, { role: 'admin' })).status,
    ).toBe(409);

    expect((await owner.send(`/organizations/${id}/transfer`, { user_id: String(next.id) })).status).toBe(
      200,
    );
    expect(await roleOf(id, next.id)).toBe('owner');
    expect(await roleOf(id, owner.id)).toBe('admin');
    expect((await owner.send(`/organizations/${id}/leave`)).status).toBe(200);
    expect((await owner.get(`/organizations/${id}`)).status).toBe(404);
  });

  it('only an owner deletes, and the memberships go with it', async () => {
    const owner = await t.member('owner4@example.com');
    const admin = await t.member('admin4@example.com');
    const id = await create(owner, 'Hooli');
    await organizations.addMember(id, admin.id, 'admin', owner.id);
    expect((await admin.send(`/organizations/${id}/delete`)).status).toBe(403);
    expect((await owner.send(`/organizations/${id}/delete`)).status).toBe(200);
    expect(await organizations.forUser(admin.id)).toEqual([]);
    expect((await owner.get(`/organizations/${id}`)).status).toBe(404);
  });

  it('without JavaScript: a refused form comes back to the page with the reason', async () => {
    const owner = await t.member('owner5@example.com');
    const id = await create(owner, 'Stark');
    const res = await owner.send(`/organizations/${id}/leave`, {}, false);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/organizations/${id}`);
    expect(await (await owner.get(`/organizations/${id}`)).text()).toContain(
      LAST_OWNER.replace("'", '&#39;'),
    );
  });
});
