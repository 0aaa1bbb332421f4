import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Clients } from '../../src/oauth/index.js';
import { Organizations } from '../../src/organizations/organizations.js';
import { ANY_ENGINE, ENGINES } from '../support/engines.js';
import { type Member, type OrganizationsTestApp, organizationsApp } from './support.js';

interface Token {
  accessToken: string;
  token: { id: string; organization_id: number | null };
}
interface Key {
  key: string;
  api_key: { id: string; organization_id: number | null };
}

describe.each(ENGINES)('organization-owned credentials (%s)', (engine) => {
  let t: OrganizationsTestApp;
  let organizations: Organizations;
  let owner: Member;
  let admin: Member;
  let plain: Member;
  let outsider: Member;
  let acme: number;
  let globex: number;

  beforeAll(async () => {
    t = await organizationsApp({ engine, oauth: true });
    organizations = t.app.container.make(Organizations);
    owner = await t.member('owner@example.com');
    admin = await t.member('admin@example.com');
    plain = await t.member('plain@example.com');
    outsider = await t.member('outsider@example.com');
    acme = (await organizations.create(owner.id, 'Acme')).id;
    globex = (await organizations.create(outsider.id, 'Globex')).id;
    await organizations.addMember(acme, admin.id, 'admin', owner.id);
    await organizations.addMember(acme, plain.id, 'member', owner.id);
  });
  afterAll(() => t?.close());

  const probe = (credential: string, header = 'authorization') =>
    t.request('/probe/credential', {
      headers: {
        accept: 'application/json',
        [header]: header === 'authorization' ? `Bearer ${credential}` : credential,
      },
    });
  const patFor = async (member: Member, organizationId: number, name = 'cli'): Promise<Token> => {
    const res = await member.json('POST', `/oauth/personal-access-tokens?organization_id=${organizationId}`, {
      name,
      scopes: [],
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as Token;
  };
  const keyFor = async (member: Member, organizationId: number, name: string): Promise<Key> => {
    const res = await member.json('POST', `/api-keys?organization_id=${organizationId}`, { name });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as Key;
  };

  it('a personal access token made for an organization carries org_id in the JWT, introspection and the route context', async () => {
    const { accessToken, token } = await patFor(plain, acme);
    expect(token.organization_id).toBe(acme);
    expect(decodeJwt(accessToken).org_id).toBe(acme);
    const res = await probe(accessToken);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ user: plain.id, organization: acme });

    const { client, plainSecret } = await t.app.container
      .make(Clients)
      .create({ name: 'Introspector', redirect: 'http://localhost' });
    await t.app.db
      .updateTable('oauth_clients')
      .set({ resource_server: 1 })
      .where('id', '=', client.id)
      .execute();
    const introspection = await t.request('/oauth/introspect', {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.id}:${plainSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ token: accessToken }).toString(),
    });
    expect(introspection.status).toBe(200);
    expect(await introspection.json()).toMatchObject({ active: true, org_id: acme, sub: String(plain.id) });

    // A personal token stays personal: no org_id anywhere.
    const own = await plain.json('POST', '/oauth/personal-access-tokens', { name: 'mine', scopes: [] });
    const mine = (await own.json()) as Token;
    expect(decodeJwt(mine.accessToken).org_id).toBeUndefined();
    expect(await (await probe(mine.accessToken)).json()).toEqual({ user: plain.id, organization: null });
  });

  it("an admin creates the organization's API keys; a member may not (403 naming the permission)", async () => {
    const { key, api_key } = await keyFor(admin, acme, 'deploy');
    expect(api_key.organization_id).toBe(acme);
    expect(await (await probe(key)).json()).toEqual({ user: admin.id, organization: acme });

    const refused = await plain.json('POST', `/api-keys?organization_id=${acme}`, {
      name: 'mine',
      scopes: [],
    });
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe(
      "Your role in this organization does not allow you to create or revoke the organization's keys and clients.",
    );
    // Every member sees the organization's keys (hints only); the admin's personal list does not hold them.
    const listed = (await (await plain.json('GET', `/api-keys?organization_id=${acme}`)).json()) as {
      id: string;
    }[];
    expect(listed.map((k) => k.id)).toContain(api_key.id);
    expect(((await (await admin.json('GET', '/api-keys')).json()) as unknown[]).length).toBe(0);
  });

  it("another organization's key, token or organization by id is 404; a bad organization id is 422", async () => {
    const theirs = await keyFor(outsider, globex, 'theirs');
    const ours = await keyFor(owner, acme, 'ours');
    // Scoped to Acme, Globex's key does not exist; scoped to Globex, the owner is no member.
    expect(
      (await owner.json('DELETE', `/api-keys/${theirs.api_key.id}?organization_id=${acme}`)).status,
    ).toBe(404);
    expect(
      (await owner.json('DELETE', `/api-keys/${theirs.api_key.id}?organization_id=${globex}`)).status,
    ).toBe(404);
    expect((await owner.json('GET', `/api-keys?organization_id=${globex}`)).status).toBe(404);
    expect((await owner.json('POST', `/api-keys?organization_id=${globex}`, { name: 'x' })).status).toBe(404);
    // An organization's key is not a personal one either.
    expect((await owner.json('DELETE', `/api-keys/${ours.api_key.id}`)).status).toBe(404);
    const pat = await patFor(outsider, globex);
    expect(
      (await outsider.json('DELETE', `/oauth/personal-access-tokens/${pat.token.id}?organization_id=${acme}`))
        .status,
    ).toBe(404);
    const bad = await owner.json('GET', '/api-keys?organization_id=acme');
    expect(bad.status).toBe(422);
    expect((await bad.json()).errors.organization_id).toEqual([
      'The organization id must be a positive whole number.',
    ]);
    // Revoking in the right scope works, and the key stops at once.
    expect((await owner.json('DELETE', `/api-keys/${ours.api_key.id}?organization_id=${acme}`)).status).toBe(
      204,
    );
    expect((await probe(ours.key)).status).toBe(401);
  });

  it("the personal scope neither sees nor revokes a token or key acting for the organization, nor the organization's scope a personal one", async () => {
    const forAcme = await patFor(plain, acme, 'acme only');
    const personalRes = await plain.json('POST', '/oauth/personal-access-tokens', {
      name: 'mine',
      scopes: [],
    });
    const personal = (await personalRes.json()) as Token;
    const orgKey = await keyFor(owner, acme, 'scoped key');
    const ownKey = (await (await owner.json('POST', '/api-keys', { name: 'own key' })).json()) as Key;
    const ids = async (member: Member, path: string) =>
      ((await (await member.json('GET', path)).json()) as { id: string }[]).map((item) => item.id);

    const tokens = '/oauth/personal-access-tokens';
    const inAcme = `?organization_id=${acme}`;
    expect(await ids(plain, tokens)).not.toContain(forAcme.token.id);
    expect(await ids(plain, `${tokens}${inAcme}`)).not.toContain(personal.token.id);
    expect(await ids(owner, '/api-keys')).not.toContain(orgKey.api_key.id);
    expect(await ids(owner, `/api-keys${inAcme}`)).not.toContain(ownKey.api_key.id);

    expect((await plain.json('POST', `${tokens}/${forAcme.token.id}/regenerate`)).status).toBe(404);
    expect((await plain.json('DELETE', `${tokens}/${forAcme.token.id}`)).status).toBe(404);
    expect((await plain.json('POST', `${tokens}/${personal.token.id}/regenerate${inAcme}`)).status).toBe(404);
    expect((await plain.json('DELETE', `${tokens}/${personal.token.id}${inAcme}`)).status).toBe(404);
    expect((await owner.json('DELETE', `/api-keys/${orgKey.api_key.id}`)).status).toBe(404);
    expect((await owner.json('DELETE', `/api-keys/${ownKey.api_key.id}${inAcme}`)).status).toBe(404);
    for (const credential of [forAcme.accessToken, personal.accessToken, orgKey.key, ownKey.key])
      expect((await probe(credential)).status).toBe(200);

    // Each in its own scope.
    expect((await plain.json('DELETE', `${tokens}/${forAcme.token.id}${inAcme}`)).status).toBe(204);
    expect((await plain.json('DELETE', `${tokens}/${personal.token.id}`)).status).toBe(204);
  });

  it("a member who is removed loses their tokens for the organization at once; the organization's keys keep working", async () => {
    const leaver = await t.member('leaver@example.com');
    await organizations.addMember(acme, leaver.id, 'admin', owner.id);
    const forAcme = await patFor(leaver, acme, 'acme');
    const personal = (await (
      await leaver.json('POST', '/oauth/personal-access-tokens', { name: 'own', scopes: [] })
    ).json()) as Token;
    const orgKey = await keyFor(leaver, acme, 'made by leaver');
    for (const credential of [forAcme.accessToken, personal.accessToken, orgKey.key])
      expect((await probe(credential)).status).toBe(200); // cached as verified

    expect((await owner.send(`/organizations/${acme}/members/${leaver.id}/remove`)).status).toBe(200);
    const refused = await probe(forAcme.accessToken);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('invalid_token');
    expect((await probe(personal.accessToken)).status).toBe(200);
    expect(await (await probe(orgKey.key)).json()).toEqual({ user: leaver.id, organization: acme });
    // No longer a member: no new token for Acme.
    expect(
      (
        await leaver.json('POST', `/oauth/personal-access-tokens?organization_id=${acme}`, {
          name: 'again',
          scopes: [],
        })
      ).status,
    ).toBe(404);
  });

  it("deleting the organization ends its keys and its members' tokens", async () => {
    const temp = (await organizations.create(owner.id, 'Temp')).id;
    const key = await keyFor(owner, temp, 'temp key');
    const pat = await patFor(owner, temp);
    expect((await probe(key.key)).status).toBe(200);
    expect((await probe(pat.accessToken)).status).toBe(200);
    await organizations.delete(owner.id, temp);
    expect((await probe(key.key)).status).toBe(401);
    expect((await probe(pat.accessToken)).status).toBe(401);
  });
});

// A page over audit rows that test/observability loops on both engines: once, on SQLite.
describe("an organization's audit page", () => {
  let t: OrganizationsTestApp;
  beforeAll(async () => {
    t = await organizationsApp({ engine: ANY_ENGINE, oauth: true });
  });
  afterAll(() => t?.close());

  it('lists who invited, removed, changed a role and created a key, newest first, without script; members without audit.view get 403', async () => {
    const organizations = t.app.container.make(Organizations);
    const owner = await t.member('boss@example.com');
    const bob = await t.member('bob@example.com');
    const carol = await t.member('carol@example.com');
    const acme = (await organizations.create(owner.id, 'Acme')).id;
    const other = (await organizations.create(owner.id, 'Other')).id;
    expect(
      (await owner.send(`/organizations/${acme}/invitations`, { email: 'dan@example.com', role: 'member' }))
        .status,
    ).toBe(200);
    await organizations.addMember(acme, bob.id, 'member', owner.id);
    await organizations.addMember(acme, carol.id, 'member', owner.id);
    expect(
      (await owner.send(`/organizations/${acme}/members/${bob.id}/role`, { role: 'admin' })).status,
    ).toBe(200);
    expect((await owner.send(`/organizations/${acme}/members/${carol.id}/remove`)).status).toBe(200);
    expect((await bob.json('POST', `/api-keys?organization_id=${acme}`, { name: 'deploy' })).status).toBe(
      201,
    );
    expect(
      (await owner.json('POST', `/api-keys?organization_id=${other}`, { name: 'elsewhere' })).status,
    ).toBe(201);
    expect((await owner.json('POST', '/api-keys', { name: 'personal' })).status).toBe(201);

    const page = await owner.get(`/organizations/${acme}/audit`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toContain('<script');
    const rows = [...html.matchAll(/<tr data-kind="[^"]+"><td>.*?<\/td><td>(.*?)<\/td><\/tr>/g)].map((m) =>
      m[1]!.replaceAll('&quot;', '"'),
    );
    expect(rows.slice(0, 5)).toEqual([
      'bob@example.com created the API key "deploy"',
      'boss@example.com removed carol@example.com',
      'boss@example.com changed the role of bob@example.com from member to admin',
      'carol@example.com joined as member',
      'bob@example.com joined as member',
    ]);
    expect(rows).toContain('boss@example.com invited dan@example.com as member');
    expect(html).not.toContain('elsewhere');
    expect(html).not.toContain('personal');
    expect(await (await owner.get(`/organizations/${acme}`)).text()).toContain(
      `/organizations/${acme}/audit`,
    );

    const asAdmin = await bob.get(`/organizations/${acme}/audit`, { accept: 'application/json' });
    expect(asAdmin.status).toBe(200);
    const member = await t.member('mia@example.com');
    await organizations.addMember(acme, member.id, 'member', owner.id);
    const denied = await member.get(`/organizations/${acme}/audit`, { accept: 'application/json' });
    expect(denied.status).toBe(403);
    expect((await denied.json()).message).toBe(
      "Your role in this organization does not allow you to see the organization's audit log.",
    );
    expect((await carol.get(`/organizations/${acme}/audit`)).status).toBe(404);
  });
});
