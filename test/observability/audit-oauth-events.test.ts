import { describe, expect, it } from 'vitest';
import { AuthorizedApps } from '../../src/oauth/tokens/authorized-apps.js';
import { AuditLog } from '../../src/observability/audit/audit-log.js';
import { observabilityProvider } from '../../src/observability/provider.js';
import { ADA, approvalFields, REDIRECT, serverWithAda } from '../oauth/support.js';
import { ENGINES } from '../support/engines.js';

type Server = ReturnType<typeof serverWithAda>;

const auditRows = async (s: Server, kind: string, subject?: string) => {
  await s.t.app.container.make(AuditLog).flush();
  let q = s.t.app.db.selectFrom('audit_events').selectAll().where('kind', '=', kind);
  if (subject !== undefined) q = q.where('subject', '=', subject);
  return q.orderBy('id').execute();
};

/** An access token of an application Ada authorized (the password grant), by its id in `/oauth/tokens`. */
async function authorizedTokenId(s: Server): Promise<string> {
  const { client, plainSecret } = await s.t.createClient({ password: true, name: 'Phone app' });
  const granted = await fetch(`${s.t.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: client.id,
      client_secret: plainSecret!,
      username: ADA.email,
      password: ADA.password,
    }),
  });
  expect(granted.status).toBe(200);
  const listed = (await (await s.ada.json('GET', '/oauth/tokens')).json()) as {
    id: string;
    client_id: string;
  }[];
  return listed.find((token) => token.client_id === client.id)!.id;
}

/** `DELETE /oauth/tokens/{id}` from Ada's browser, with more headers (a proxy's). */
const deleteToken = (s: Server, id: string, headers: Record<string, string> = {}) =>
  s.ada.request(`/oauth/tokens/${id}`, {
    method: 'DELETE',
    headers: { accept: 'application/json', origin: s.ada.base, 'x-csrf-token': s.csrf, ...headers },
  });

describe.each(ENGINES)(
  'audited credential events, each exactly once, also under a double submit (%s)',
  (engine) => {
    const s = serverWithAda({ engine, providers: [observabilityProvider()] });

    const rows = async (kind: string, subject?: string) => {
      await s.t.app.container.make(AuditLog).flush();
      let q = s.t.app.db.selectFrom('audit_events').selectAll().where('kind', '=', kind);
      if (subject !== undefined) q = q.where('subject', '=', subject);
      return q.orderBy('id').execute();
    };
    const twice = <T>(send: () => Promise<T>) => Promise.all([send(), send()]);
    const createClient = async (name = 'Shop') => {
      const res = await s.ada.json('POST', '/oauth/clients', { name, redirect: REDIRECT }, s.csrf);
      expect(res.status).toBe(201);
      return (await res.json()) as { id: string };
    };

    it('a client: created, updated, secret rotated and deleted, each audited once under its owner', async () => {
      const { id } = await createClient();
      const subject = `client:${id}`;
      expect(await rows('client.created', subject)).toMatchObject([
        { user_id: s.t.ada.id, actor: `user:${s.t.ada.id}`, details: '{"name":"Shop"}', ip: '127.0.0.1' },
      ]);
      const update = await s.ada.json(
        'PUT',
        `/oauth/clients/${id}`,
        { name: 'Shop 2', redirect: REDIRECT },
        s.csrf,
      );
      expect(update.status).toBe(200);
      expect(await rows('client.updated', subject)).toHaveLength(1);

      const rotations = await twice(() => s.ada.json('POST', `/oauth/clients/${id}/secret`, {}, s.csrf));
      const rotated = rotations.filter((r) => r.status === 200).length;
      expect(rotated).toBeGreaterThanOrEqual(1);
      expect(await rows('client.secret-rotated', subject)).toHaveLength(rotated);

      const deletes = await twice(() => s.ada.json('DELETE', `/oauth/clients/${id}`, undefined, s.csrf));
      expect(deletes.map((r) => r.status).sort()).toEqual([204, 404]);
      expect(await rows('client.deleted', subject)).toMatchObject([{ user_id: s.t.ada.id }]);
    });

    it('a personal access token: created once per token made, revoked once however often it is deleted', async () => {
      await s.t.createClient({ personalAccess: true, name: 'Personal Access Client' });
      const made = await twice(() =>
        s.ada.json(
          'POST',
          '/oauth/personal-access-tokens',
          { name: 'laptop', scopes: ['check-status'] },
          s.csrf,
        ),
      );
      expect(
        made.map((r) => r.status),
        await made[0]!.clone().text(),
      ).toEqual([200, 200]);
      const ids = await Promise.all(
        made.map(async (r) => ((await r.json()) as { token: { id: string } }).token.id),
      );
      for (const id of ids)
        expect(await rows('personal-access-token.created', `personal-access-token:${id}`)).toHaveLength(1);

      const deletes = await twice(() =>
        s.ada.json('DELETE', `/oauth/personal-access-tokens/${ids[0]}`, undefined, s.csrf),
      );
      expect(deletes.map((r) => r.status).sort()).toEqual([204, 404]);
      expect(await rows('personal-access-token.revoked', `personal-access-token:${ids[0]}`)).toMatchObject([
        { user_id: s.t.ada.id },
      ]);
    });

    it("an authorized application's access token revoked from /oauth/tokens: audited once under a double click", async () => {
      const id = await authorizedTokenId(s);
      const deletes = await twice(() => deleteToken(s, id));
      expect(deletes.map((r) => r.status).sort()).toEqual([204, 404]);
      const revoked = await auditRows(s, 'access-token.revoked', `access-token:${id}`);
      expect(revoked).toMatchObject([{ user_id: s.t.ada.id, actor: `user:${s.t.ada.id}`, ip: '127.0.0.1' }]);
      expect(JSON.parse(revoked[0]!.details!)).toEqual({ client: expect.any(String) });
    });

    it("an X-Forwarded-For from a proxy that is not trusted is ignored: the peer's address is recorded", async () => {
      const id = await authorizedTokenId(s);
      expect((await deleteToken(s, id, { 'x-forwarded-for': '203.0.113.9' })).status).toBe(204);
      expect(await auditRows(s, 'access-token.revoked', `access-token:${id}`)).toMatchObject([
        { ip: '127.0.0.1' },
      ]);
    });

    it('an API key: created once, revoked once under a double click', async () => {
      const res = await s.ada.json('POST', '/api-keys', { name: 'ci' }, s.csrf);
      expect(res.status).toBe(201);
      const { api_key: key } = (await res.json()) as { api_key: { id: string } };
      expect(await rows('api-key.created', `api-key:${key.id}`)).toHaveLength(1);
      const deletes = await twice(() => s.ada.json('DELETE', `/api-keys/${key.id}`, undefined, s.csrf));
      expect(deletes.map((r) => r.status).sort()).toEqual([204, 404]);
      expect(await rows('api-key.revoked', `api-key:${key.id}`)).toHaveLength(1);
    });

    it('an approval is audited with its scopes as often as it was approved; revoking the application twice at once, once', async () => {
      const { client, plainSecret } = await s.t.createClient({ name: 'Reader' });
      const page = await s.ada.get(
        `/oauth/authorize?${new URLSearchParams({
          client_id: client.id,
          redirect_uri: REDIRECT,
          response_type: 'code',
          scope: 'check-status',
          state: 'st',
        })}`,
      );
      expect(page.status).toBe(200);
      const fields = approvalFields(await page.text());
      const answers = await twice(() => s.ada.post('/oauth/authorize', fields));
      // The pending decision lives in the session, which both posts may read before either saves it:
      // the consent is audited as often as the server approved (on SQLite, once).
      const approved = answers.filter(
        (r) => r.status === 302 && r.headers.get('location')?.includes('code='),
      );
      expect(approved.length).toBeGreaterThanOrEqual(1);
      const granted = await rows('consent.granted', `client:${client.id}`);
      expect(granted).toHaveLength(approved.length);
      expect(granted[0]).toMatchObject({ user_id: s.t.ada.id, details: '{"scopes":["check-status"]}' });

      // The approval lives in the tokens it gave: redeem the code, then revoke the application twice at once.
      const code = new URL(answers.find((r) => r.status === 302)!.headers.get('location')!).searchParams.get(
        'code',
      )!;
      const token = await fetch(`${s.t.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT,
          client_id: client.id,
          client_secret: plainSecret!,
        }),
      });
      expect(token.status).toBe(200);
      const apps = s.t.app.container.make(AuthorizedApps);
      const revoked = await twice(() => apps.revoke(s.t.ada.id, client.id));
      expect(revoked.filter((app) => app !== undefined)).toHaveLength(1);
      expect(await rows('consent.revoked', `client:${client.id}`)).toMatchObject([{ user_id: s.t.ada.id }]);
    });
  },
);

describe.each(ENGINES)(
  "behind a trusted proxy, the audit log records the client's address (%s)",
  (engine) => {
    // The test's requests come from 127.0.0.1: that is the proxy here.
    const s = serverWithAda({
      engine,
      providers: [observabilityProvider()],
      config: { http: { trustedProxies: ['127.0.0.0/8', '10.0.0.0/8'] } },
    });

    it('the last address of X-Forwarded-For that is not a trusted proxy, whatever a client put before it', async () => {
      const cases: [string, string][] = [
        ['203.0.113.9', '203.0.113.9'],
        // The client claims an address; the inner proxy (10.0.0.7, trusted) saw 198.51.100.4.
        ['192.0.2.66, 198.51.100.4, 10.0.0.7', '198.51.100.4'],
        ['2001:db8::5', '2001:db8::5'],
      ];
      for (const [forwardedFor, client] of cases) {
        const id = await authorizedTokenId(s);
        expect((await deleteToken(s, id, { 'x-forwarded-for': forwardedFor })).status).toBe(204);
        expect(await auditRows(s, 'access-token.revoked', `access-token:${id}`)).toMatchObject([
          { ip: client },
        ]);
      }
      // No header: the peer itself.
      const id = await authorizedTokenId(s);
      expect((await deleteToken(s, id)).status).toBe(204);
      expect(await auditRows(s, 'access-token.revoked', `access-token:${id}`)).toMatchObject([
        { ip: '127.0.0.1' },
      ]);
    });
  },
);
