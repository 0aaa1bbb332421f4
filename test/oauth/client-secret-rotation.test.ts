import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tollgate } from '../support/cli.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { ENGINES } from '../support/engines.js';
import { ADA, BOB, basic, type OAuthTestApp, serverWithAda, tokenRequest } from './support.js';

/** A client_credentials request with HTTP Basic: the token endpoint's status. */
async function tokenStatus(t: OAuthTestApp, id: string, secret: string): Promise<number> {
  const res = await tokenRequest(
    t,
    { grant_type: 'client_credentials' },
    { authorization: basic(id, secret) },
  );
  await res.body?.cancel();
  return res.status;
}

describe.each(ENGINES)(
  'client secret rotation through the JSON API, at the real token endpoint (%s)',
  (engine) => {
    const app = serverWithAda({ engine });
    const rotate = (id: string, body: unknown) =>
      app.ada.json('POST', `/oauth/clients/${id}/secret`, body, app.csrf);

    it('the new secret is shown once; the old one works during the grace period and is refused after', async () => {
      const { client, plainSecret: old } = await app.t.createClient({ userId: app.t.ada.id });
      expect(await tokenStatus(app.t, client.id, old!)).toBe(200);

      const res = await rotate(client.id, { grace_seconds: 600 });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const body = (await res.json()) as { secret: string; previous_secret_expires_at: string };
      expect(body.secret).toMatch(/^\S{40,}$/);
      expect(body.previous_secret_expires_at).toBe(
        new Date(app.t.clock.now().getTime() + 600_000).toISOString(),
      );
      const listed = (await (await app.ada.json('GET', '/oauth/clients')).json()) as Array<
        Record<string, unknown>
      >;
      expect(listed.find((c) => c.id === client.id)).not.toHaveProperty('secret');

      expect(await tokenStatus(app.t, client.id, old!)).toBe(200);
      expect(await tokenStatus(app.t, client.id, body.secret)).toBe(200);

      app.t.clock.advance(600_000);
      expect(await tokenStatus(app.t, client.id, old!)).toBe(401);
      expect(await tokenStatus(app.t, client.id, body.secret)).toBe(200);
    });

    it('grace 0: the old secret is refused at once, also right after it authenticated (no cached pass)', async () => {
      const { client, plainSecret: old } = await app.t.createClient({ userId: app.t.ada.id });
      expect(await tokenStatus(app.t, client.id, old!)).toBe(200);
      const res = await rotate(client.id, { grace_seconds: 0 });
      const body = (await res.json()) as { secret: string; previous_secret_expires_at: null };
      expect(body.previous_secret_expires_at).toBeNull();
      expect(await tokenStatus(app.t, client.id, old!)).toBe(401);
      expect(await tokenStatus(app.t, client.id, body.secret)).toBe(200);
    });

    it('a rotation rotates only the current secret: an earlier one stops', async () => {
      const { client, plainSecret: first } = await app.t.createClient({ userId: app.t.ada.id });
      const second = ((await (await rotate(client.id, { grace_seconds: 600 })).json()) as { secret: string })
        .secret;
      const third = ((await (await rotate(client.id, { grace_seconds: 600 })).json()) as { secret: string })
        .secret;
      expect(await tokenStatus(app.t, client.id, first!)).toBe(401);
      expect(await tokenStatus(app.t, client.id, second)).toBe(200);
      expect(await tokenStatus(app.t, client.id, third)).toBe(200);
    });

    it('a double click: two rotations at once end with exactly one working secret among those shown', async () => {
      const { client, plainSecret: old } = await app.t.createClient({ userId: app.t.ada.id });
      const answers = await Promise.all([rotate(client.id, {}), rotate(client.id, {})]);
      // Each either rotated (200, the later replacing the earlier) or found the secret changed (409).
      const statuses = answers.map((r) => r.status);
      expect(statuses).toContain(200);
      expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
      const shown: string[] = [];
      for (const answer of answers) {
        const body = (await answer.json()) as { secret?: string; message?: string };
        if (answer.status === 200) shown.push(body.secret!);
        else expect(body.message).toContain('changed meanwhile');
      }
      const working = [];
      for (const secret of shown)
        if ((await tokenStatus(app.t, client.id, secret)) === 200) working.push(secret);
      expect(working).toHaveLength(1);
      expect(await tokenStatus(app.t, client.id, old!)).toBe(401);
    });

    it("bad input: 422 for a public client or a bad grace period, 404 for another user's client", async () => {
      const { client: pub } = await app.t.createClient({ userId: app.t.ada.id, confidential: false });
      expect((await rotate(pub.id, {})).status).toBe(422);
      const { client } = await app.t.createClient({ userId: app.t.ada.id });
      const bad = await rotate(client.id, { grace_seconds: -1 });
      expect(bad.status).toBe(422);
      expect(((await bad.json()) as { errors: object }).errors).toHaveProperty('grace_seconds');
      const { client: bobs } = await app.t.createClient({ userId: app.t.bob.id });
      expect((await rotate(bobs.id, {})).status).toBe(404);
      expect(BOB.email).not.toBe(ADA.email);
    });
  },
);

describe.each(ENGINES)('tollgate client:secret (%s)', (engine) => {
  let database: TestDatabase;
  let env: Record<string, string>;
  const storage = mkdtempSync(join(tmpdir(), 'tollgate-client-secret-cli-'));
  beforeAll(async () => {
    database = await createTestDatabase(engine);
    env = { DATABASE_URL: database.url, STORAGE_PATH: storage, LOG_LEVEL: 'silent' };
  });
  afterAll(async () => {
    await database?.drop();
    rmSync(storage, { recursive: true, force: true });
  });

  it('prints the new secret and until when the old one works; refuses a bad grace or an unknown client', async () => {
    const created = await tollgate(
      ['client', '--name', 'Backend', '--redirect', 'https://app.example/cb', '--json'],
      env,
    );
    expect(created.code, created.stderr).toBe(0);
    const { id, secret } = JSON.parse(created.stdout) as { id: string; secret: string };
    const rotated = await tollgate(['client:secret', id, '--grace', '3600', '--json'], env);
    expect(rotated.code, rotated.stderr).toBe(0);
    const out = JSON.parse(rotated.stdout) as {
      client_id: string;
      secret: string;
      previous_secret_expires_at: string;
    };
    expect(out.client_id).toBe(id);
    expect(out.secret).not.toBe(secret);
    expect(Date.parse(out.previous_secret_expires_at)).toBeGreaterThan(Date.now() + 3_500_000);

    const bad = await tollgate(['client:secret', id, '--grace', 'soon'], env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--grace must be a whole number');
    const unknown = await tollgate(['client:secret', '00000000-0000-4000-8000-000000000000'], env);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('No live client');
  });
});
