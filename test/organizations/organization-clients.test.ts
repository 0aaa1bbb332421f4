import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/observability/audit/audit-log.js';
import { Organizations } from '../../src/organizations/organizations.js';
import { ENGINES } from '../support/engines.js';
import { type Member, type OrganizationsTestApp, organizationsApp } from './support.js';

interface Client {
  id: string;
  secret?: string;
  user_id: number | null;
  organization_id: number | null;
  name: string;
}

describe.each(ENGINES)('organization-owned OAuth clients over /oauth/clients (%s)', (engine) => {
  let t: OrganizationsTestApp;
  let organizations: Organizations;
  let owner: Member;
  let admin: Member;
  let plain: Member;
  let outsider: Member;
  let acme: number;
  let globex: number;

  beforeAll(async () => {
    t = await organizationsApp({ oauth: true, engine, config: { oauth: { maxClientsPerUser: 4 } } });
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

  const create = async (member: Member, organizationId: number, name: string): Promise<Client> => {
    const res = await member.json('POST', `/oauth/clients?organization_id=${organizationId}`, {
      name,
      redirect: 'https://app.example.com/callback',
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as Client;
  };
  const clientCredentials = (client: Client, secret = client.secret!) =>
    t.request('/oauth/token', {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.id}:${secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials' }).toString(),
    });
  const introspect = (client: Client, token: string) =>
    t.request('/oauth/introspect', {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ token }).toString(),
    });
  const tokenOf = async (client: Client): Promise<string> => {
    const res = await clientCredentials(client);
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as { access_token: string }).access_token;
  };

  it("an owner creates the organization's client; its own tokens carry org_id in the JWT and introspection", async () => {
    const client = await create(owner, acme, 'Acme backend');
    expect(client).toMatchObject({ organization_id: acme, user_id: null, name: 'Acme backend' });
    expect(client.secret).toMatch(/^\S{40,}$/);
    const token = await tokenOf(client);
    expect(decodeJwt(token).org_id).toBe(acme);
    const introspection = await introspect(client, token);
    expect(await introspection.json()).toMatchObject({ active: true, org_id: acme, client_id: client.id });
    // A personal client's token carries none.
    const own = await owner.json('POST', '/oauth/clients', {
      name: 'Mine',
      redirect: 'https://me.example.com',
    });
    expect(own.status).toBe(201);
    const mine = (await own.json()) as Client;
    expect(mine.organization_id).toBeNull();
    expect(decodeJwt(await tokenOf(mine)).org_id).toBeUndefined();
  });

  it('every member lists the clients; only owners and admins create, change, rotate or delete them (403 naming the permission)', async () => {
    const client = await create(admin, acme, 'Admin made');
    const listed = (await (
      await plain.json('GET', `/oauth/clients?organization_id=${acme}`)
    ).json()) as Client[];
    expect(listed.map((c) => c.id)).toContain(client.id);
    expect(listed.every((c) => c.secret === undefined)).toBe(true);
    // The organization's clients are not in anyone's own list.
    const own = (await (await admin.json('GET', '/oauth/clients')).json()) as Client[];
    expect(own.map((c) => c.id)).not.toContain(client.id);

    const message =
      "Your role in this organization does not allow you to create or revoke the organization's keys and clients.";
    const refusals = [
      await plain.json('POST', `/oauth/clients?organization_id=${acme}`, {
        name: 'x',
        redirect: 'https://x.example',
      }),
      await plain.json('PUT', `/oauth/clients/${client.id}?organization_id=${acme}`, {
        name: 'renamed',
        redirect: 'https://x.example',
      }),
      await plain.json('POST', `/oauth/clients/${client.id}/secret?organization_id=${acme}`, {}),
      await plain.json('DELETE', `/oauth/clients/${client.id}?organization_id=${acme}`),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(403);
      expect((await res.json()).message).toBe(message);
    }

    const renamed = await owner.json('PUT', `/oauth/clients/${client.id}?organization_id=${acme}`, {
      name: 'Renamed',
      redirect: 'https://app.example.com/cb',
    });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ name: 'Renamed', organization_id: acme });
    const rotated = await admin.json(
      'POST',
      `/oauth/clients/${client.id}/secret?organization_id=${acme}`,
      {},
    );
    expect(rotated.status).toBe(200);
    const secret = ((await rotated.json()) as Client).secret!;
    expect((await clientCredentials(client, secret)).status).toBe(200);
    expect((await clientCredentials(client)).status).toBe(401);
    expect((await admin.json('DELETE', `/oauth/clients/${client.id}?organization_id=${acme}`)).status).toBe(
      204,
    );
    expect((await clientCredentials(client, secret)).status).toBe(401);
  });

  it("another organization's client, a personal client in the organization's scope, or the organization's client in a personal scope is 404", async () => {
    const theirs = await create(outsider, globex, 'Globex app');
    const ours = await create(owner, acme, 'Acme app');
    const mine = (await (
      await owner.json('POST', '/oauth/clients', { name: 'Own', redirect: 'https://own.example' })
    ).json()) as Client;
    const update = { name: 'Taken', redirect: 'https://evil.example' };
    // Scoped to Acme, Globex's client and the owner's own client do not exist.
    expect(
      (await owner.json('PUT', `/oauth/clients/${theirs.id}?organization_id=${acme}`, update)).status,
    ).toBe(404);
    expect((await owner.json('DELETE', `/oauth/clients/${theirs.id}?organization_id=${acme}`)).status).toBe(
      404,
    );
    expect((await owner.json('DELETE', `/oauth/clients/${mine.id}?organization_id=${acme}`)).status).toBe(
      404,
    );
    // Scoped to Globex, the owner of Acme is no member: whether Globex exists is not said.
    expect((await owner.json('GET', `/oauth/clients?organization_id=${globex}`)).status).toBe(404);
    expect((await owner.json('DELETE', `/oauth/clients/${theirs.id}?organization_id=${globex}`)).status).toBe(
      404,
    );
    // Without a scope, an organization's client is nobody's own.
    expect((await owner.json('PUT', `/oauth/clients/${ours.id}`, update)).status).toBe(404);
    expect((await owner.json('POST', `/oauth/clients/${ours.id}/secret`, {})).status).toBe(404);
    expect((await owner.json('DELETE', `/oauth/clients/${ours.id}`)).status).toBe(404);
    expect((await owner.json('GET', '/oauth/clients?organization_id=0')).status).toBe(422);
    // Nothing changed: both still issue tokens.
    expect((await clientCredentials(theirs)).status).toBe(200);
    expect((await clientCredentials(ours)).status).toBe(200);
  });

  it('an admin who leaves no longer manages the client they made; the client and its tokens keep working', async () => {
    const leaver = await t.member('leaver@example.com');
    await organizations.addMember(acme, leaver.id, 'admin', owner.id);
    const client = await create(leaver, acme, 'Made by the leaver');
    const token = await tokenOf(client);

    expect((await leaver.send(`/organizations/${acme}/leave`)).status).toBe(200);
    expect((await leaver.json('GET', `/oauth/clients?organization_id=${acme}`)).status).toBe(404);
    expect(
      (
        await leaver.json('PUT', `/oauth/clients/${client.id}?organization_id=${acme}`, {
          name: 'Mine now',
          redirect: 'https://x.example',
        })
      ).status,
    ).toBe(404);
    expect((await leaver.json('DELETE', `/oauth/clients/${client.id}?organization_id=${acme}`)).status).toBe(
      404,
    );
    expect((await leaver.json('DELETE', `/oauth/clients/${client.id}`)).status).toBe(404);

    expect(await (await introspect(client, token)).json()).toMatchObject({ active: true, org_id: acme });
    expect(decodeJwt(await tokenOf(client)).org_id).toBe(acme);
    const listed = (await (
      await owner.json('GET', `/oauth/clients?organization_id=${acme}`)
    ).json()) as Client[];
    expect(listed.find((c) => c.id === client.id)?.name).toBe('Made by the leaver');
  });

  it("changing, rotating and deleting the organization's client are audited with the member who did it and the request id", async () => {
    const audited = (await organizations.create(owner.id, 'Audited')).id;
    await organizations.addMember(audited, admin.id, 'admin', owner.id);
    const client = await create(owner, audited, 'Audited app');
    const scope = `?organization_id=${audited}`;
    const changed = await admin.json('PUT', `/oauth/clients/${client.id}${scope}`, {
      name: 'Renamed',
      redirect: 'https://app.example.com/callback',
    });
    expect(changed.status).toBe(200);
    expect((await admin.json('POST', `/oauth/clients/${client.id}/secret${scope}`, {})).status).toBe(200);
    expect((await admin.json('DELETE', `/oauth/clients/${client.id}${scope}`)).status).toBe(204);

    await t.app.container.make(AuditLog).flush();
    const rows = await t.app.db
      .selectFrom('audit_events')
      .select(['kind', 'user_id', 'actor', 'ip', 'request_id'])
      .where('subject', '=', `client:${client.id}`)
      .where('kind', 'in', ['client.updated', 'client.secret-rotated', 'client.deleted'])
      .orderBy('id')
      .execute();
    // In-process requests have no peer address; over HTTP the row carries it as every row does.
    const byAdmin = { user_id: admin.id, actor: `user:${admin.id}` };
    expect(rows).toMatchObject([
      { kind: 'client.updated', ...byAdmin },
      { kind: 'client.secret-rotated', ...byAdmin },
      { kind: 'client.deleted', ...byAdmin },
    ]);
    for (const row of rows) expect(row.request_id).toEqual(expect.any(String));
  });

  it('the organization is capped at oauth.maxClientsPerUser clients, also when creates arrive at once', async () => {
    const capped = (await organizations.create(owner.id, 'Capped')).id;
    const max = t.app.config.oauth.maxClientsPerUser;
    expect(max).toBe(4);
    const answers = await Promise.all(
      Array.from({ length: max + 3 }, (_, i) =>
        owner.json('POST', `/oauth/clients?organization_id=${capped}`, {
          name: `app ${i}`,
          redirect: 'https://app.example.com',
        }),
      ),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(max);
    expect(statuses.filter((s) => s === 422)).toHaveLength(3);
    const listed = (await (
      await owner.json('GET', `/oauth/clients?organization_id=${capped}`)
    ).json()) as Client[];
    expect(listed).toHaveLength(max);
  });
});
