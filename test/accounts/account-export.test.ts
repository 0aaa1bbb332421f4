import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppUser } from '../../app/user.js';
import { AccountExport } from '../../src/accounts/export/account-export.js';
import { accountsProvider } from '../../src/accounts/provider.js';
import { EmailVerification } from '../../src/accounts/verification/email-verification.js';
import { authProvider } from '../../src/auth/provider.js';
import { Users } from '../../src/auth/users.js';
import { mailProvider } from '../../src/mail/provider.js';
import { ApiKeys } from '../../src/oauth/api-keys/api-keys.js';
import { Clients } from '../../src/oauth/clients/clients.js';
import { hashSecret } from '../../src/oauth/secrets.js';
import { Organizations } from '../../src/organizations/organizations.js';
import { organizationsProvider } from '../../src/organizations/provider.js';
import { browserOn, type ReferenceServer, startReferenceServer } from '../browser/server.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { ENGINES } from '../support/engines.js';

const PASSWORD = 'correct horse battery';

// "Download my data" on the reference service, every module registered (so every table exists).
describe.each(ENGINES)('download my data (%s)', (engine) => {
  let server: ReferenceServer;

  beforeAll(async () => {
    server = await startReferenceServer({ billing: { edition: 'stripe' } }, { engine });
  }, 60_000);
  afterAll(() => server?.stop());

  const browser = () => browserOn(server);

  it('needs a signed-in user', async () => {
    const res = await browser().get('/account/export');
    expect(res.status).toBe(302);
  });

  it('holds a key for every table with a user_id, the invoices and approvals, and no secret or hash', async () => {
    const { app } = server;
    const user = await app.container
      .make(Users)
      .create<AppUser>({ name: 'Dora Data', email: 'dora@example.com', password: PASSWORD });
    await user.newSubscription('main', 'basic-monthly').create('tok_visa');
    await app.container.make(EmailVerification).send(user);
    const { accessToken } = await user.createToken('CLI');
    const { plainKey } = await app.container.make(ApiKeys).create(user.id, { name: 'CI' });
    const { client, plainSecret } = await app.container
      .make(Clients)
      .create({ name: 'Dora app', redirect: 'http://127.0.0.1/cb', userId: user.id });
    // An approval of that client: an access token with a refresh token, and a code not yet redeemed.
    const now = new Date().toISOString();
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const refreshToken = 'refresh-token-plain-value';
    const code = 'authorization-code-plain-value';
    await app.db
      .insertInto('oauth_access_tokens')
      .values({
        id: 'approved-token-id',
        user_id: user.id,
        client_id: client.id,
        name: null,
        scopes: '["check-status"]',
        revoked: 0,
        created_at: now,
        updated_at: now,
        expires_at: later,
        kid: null,
        audience: null,
      })
      .execute();
    await app.db
      .insertInto('oauth_refresh_tokens')
      .values({
        id: hashSecret(refreshToken),
        access_token_id: 'approved-token-id',
        family_id: hashSecret(refreshToken),
        revoked: 0,
        created_at: now,
        expires_at: later,
        auth_time: null,
      })
      .execute();
    await app.db
      .insertInto('oauth_auth_codes')
      .values({
        id: hashSecret(code),
        user_id: user.id,
        client_id: client.id,
        scopes: '[]',
        redirect_uri: 'http://127.0.0.1/cb',
        code_challenge: null,
        code_challenge_method: null,
        revoked: 0,
        access_token_id: null,
        created_at: now,
        expires_at: later,
        nonce: null,
        auth_time: null,
        resource: null,
      })
      .execute();

    const device = browser();
    expect((await device.submit('/login', { email: user.email, password: PASSWORD })).status).toBe(302);
    const res = await device.get('/account/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="account-${user.id}-data.json"`,
    );
    const text = await res.text();
    const data = JSON.parse(text);

    // Every table that holds a user id is in the export, by name.
    const tables = await app.db.introspection.getTables();
    const withUsers = tables.filter((t) => t.columns.some((c) => c.name === 'user_id')).map((t) => t.name);
    expect(withUsers.length).toBeGreaterThan(10);
    const dataTables = withUsers.filter((t) => t !== 'account_deletions');
    for (const table of dataTables) expect(Object.keys(data), table).toContain(table);

    expect(data.account).toMatchObject({ id: user.id, name: 'Dora Data', email: 'dora@example.com' });
    expect(data.account.stripe_id).toMatch(/^cus_/);
    expect(data.sessions).toHaveLength(1);
    expect(data.sessions[0].user_agent).toBeDefined();
    expect(data.account_tokens).toEqual([expect.objectContaining({ purpose: 'verify-email' })]);
    expect(data.oauth_clients).toEqual([expect.objectContaining({ id: client.id, name: 'Dora app' })]);
    expect(data.oauth_access_tokens.map((t: { name: string | null }) => t.name).sort()).toEqual(
      ['CLI', null].sort(),
    );
    expect(data.oauth_refresh_tokens).toEqual([
      expect.objectContaining({ access_token_id: 'approved-token-id' }),
    ]);
    expect(data.oauth_auth_codes).toHaveLength(1);
    expect(data.api_keys).toEqual([expect.objectContaining({ name: 'CI' })]);
    expect(data.subscriptions).toEqual([
      expect.objectContaining({ name: 'main', stripe_plan: 'basic-monthly' }),
    ]);
    expect(data.authorized_applications).toEqual([
      expect.objectContaining({ clientId: client.id, scopes: ['check-status'] }),
    ]);
    expect(data.invoices.length).toBeGreaterThan(0);
    expect(data.invoices[0].total).toMatch(/\d/);
    expect(data.account_notifications.map((n: { kind: string }) => n.kind)).toContain('credential-created');

    // No secret, and no hash or fingerprint of one.
    const stored = async () => {
      const row = await app.db
        .selectFrom('users')
        .select('password')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      const sessions = await app.db
        .selectFrom('sessions')
        .select(['id', 'csrf_token'])
        .where('user_id', '=', user.id)
        .execute();
      const links = await app.db
        .selectFrom('account_tokens')
        .select('token_hash')
        .where('user_id', '=', user.id)
        .execute();
      const devices = await app.db
        .selectFrom('account_devices')
        .select('fingerprint')
        .where('user_id', '=', user.id)
        .execute();
      const keys = await app.db
        .selectFrom('api_keys')
        .select('key_hash')
        .where('user_id', '=', user.id)
        .execute();
      const clients = await app.db
        .selectFrom('oauth_clients')
        .select('secret')
        .where('id', '=', client.id)
        .execute();
      return [
        row.password,
        ...sessions.flatMap((s) => [s.id, s.csrf_token]),
        ...links.map((l) => l.token_hash),
        ...devices.map((d) => d.fingerprint),
        ...keys.map((k) => k.key_hash),
        ...clients.map((c) => c.secret!),
      ];
    };
    const secrets = [
      accessToken,
      plainKey,
      plainSecret!,
      refreshToken,
      code,
      hashSecret(refreshToken),
      hashSecret(code),
    ];
    const hashes = await stored();
    expect(hashes.length).toBe(7);
    for (const secret of [...secrets, ...hashes]) {
      expect(secret.length).toBeGreaterThan(16);
      expect(text).not.toContain(secret);
    }
    // The session cookie (the plain session id) and the signed access token's parts.
    for (const value of device.cookies.values()) expect(text).not.toContain(decodeURIComponent(value));
    for (const part of accessToken.split('.').slice(1)) expect(text).not.toContain(part);
  });
});

// With the organizations module: its membership table is in the export too.
describe.each(ENGINES)('download my data with organizations (%s)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      engine,
      providers: [authProvider(), mailProvider(), organizationsProvider(), accountsProvider()],
    });
  });
  afterAll(() => t?.close());

  it('lists the memberships, by every table with a user_id', async () => {
    const user = await t.app.container
      .make(Users)
      .create({ name: 'Orla Org', email: 'orla@example.com', password: PASSWORD });
    const organization = await t.app.container.make(Organizations).create(user.id, 'Orla & Co');
    const data = await t.app.container.make(AccountExport).export(user);
    const tables = await t.app.db.introspection.getTables();
    for (const table of tables.filter((x) => x.columns.some((c) => c.name === 'user_id')))
      if (table.name !== 'account_deletions') expect(Object.keys(data), table.name).toContain(table.name);
    expect(data.organization_members).toEqual([
      expect.objectContaining({ organization_id: organization.id, role: 'owner' }),
    ]);
  });
});
