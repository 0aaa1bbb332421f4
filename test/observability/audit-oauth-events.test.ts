import { describe, expect, it } from 'vitest';
import { AuthorizedApps } from '../../src/oauth/tokens/authorized-apps.js';
import { AuditLog } from '../../src/observability/audit/audit-log.js';
import { observabilityProvider } from '../../src/observability/provider.js';
import { approvalFields, REDIRECT, serverWithAda } from '../oauth/support.js';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

describe(`audited credential events, each exactly once, also under a double submit (${engine})`, () => {
  const s = serverWithAda({ providers: [observabilityProvider()] });

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
    const approved = answers.filter((r) => r.status === 302 && r.headers.get('location')?.includes('code='));
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
});
