import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../app/bootstrap.js';
import { run } from '../../src/cli/main.js';
import { connect } from '../../src/database/connection.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { ANY_ENGINE } from '../support/engines.js';

/** `tollgate install | keys | client | purge` against the reference app on a fresh database. */
describe(`tollgate OAuth commands`, () => {
  let database: TestDatabase;
  let storage: string;
  let output: string[];

  beforeAll(async () => {
    database = await createTestDatabase(ANY_ENGINE);
    storage = mkdtempSync(join(tmpdir(), 'tollgate-cli-'));
    process.env.DATABASE_URL = database.url;
    process.env.STORAGE_PATH = storage;
    process.env.LOG_LEVEL = 'silent';
  });
  afterAll(async () => {
    await database.drop();
    rmSync(storage, { recursive: true, force: true });
  });

  const tollgate = async (...argv: string[]) => {
    output = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      output.push(args.join(' '));
    });
    try {
      return await run(argv);
    } finally {
      spy.mockRestore();
    }
  };
  afterEach(() => vi.restoreAllMocks());

  const rows = async () => {
    const { db, close } = connect(database.url);
    try {
      return await db.selectFrom('oauth_clients').selectAll().orderBy('created_at').execute();
    } finally {
      await close();
    }
  };

  it('install creates the keys (private 0600) and two clients, printing their secrets', async () => {
    expect(await tollgate('install')).toBe(0);
    const privateKey = join(storage, 'oauth-private.key');
    expect(statSync(privateKey).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(storage, 'oauth-public.key'), 'utf8')).toContain('BEGIN PUBLIC KEY');
    const text = output.join('\n');
    expect(text).toContain('Personal access client created successfully.');
    expect(text).toContain('Password grant client created successfully.');
    const secrets = [...text.matchAll(/Client secret: (\S+)/g)].map((m) => m[1]!);
    expect(secrets).toHaveLength(2);
    const clients = await rows();
    expect(clients.map((c) => `${c.personal_access_client}${c.password_client}`).sort()).toEqual([
      '01',
      '10',
    ]);
    // Shown once, stored hashed.
    expect(clients.map((c) => c.secret).sort()).toEqual(
      secrets.map((s) => createHash('sha256').update(s).digest('hex')).sort(),
    );
  });

  it('install again keeps the keys and the clients; --force replaces the keys', async () => {
    const before = readFileSync(join(storage, 'oauth-private.key'), 'utf8');
    expect(await tollgate('install')).toBe(0);
    expect(readFileSync(join(storage, 'oauth-private.key'), 'utf8')).toBe(before);
    expect(await rows()).toHaveLength(2);
    expect(await tollgate('install', '--force', '--json')).toBe(0);
    const json = JSON.parse(output.join('')) as {
      keys: { written: boolean };
      passwordClient: { secret: string };
    };
    expect(json.keys.written).toBe(true);
    expect(json.passwordClient.secret).toBeTypeOf('string');
    expect(readFileSync(join(storage, 'oauth-private.key'), 'utf8')).not.toBe(before);
  });

  it('keys regenerates the keys only', async () => {
    const before = readFileSync(join(storage, 'oauth-private.key'), 'utf8');
    const count = (await rows()).length;
    expect(await tollgate('keys')).toBe(0);
    expect(readFileSync(join(storage, 'oauth-private.key'), 'utf8')).not.toBe(before);
    expect(await tollgate('keys', '--force', '--length', '3072', '--json')).toBe(0);
    expect(JSON.parse(output.join(''))).toMatchObject({ algorithm: 'RS256' });
    expect(await rows()).toHaveLength(count);
  });

  it('client with flags: standard, --public, --password, --personal, --json', async () => {
    expect(
      await tollgate('client', '--name', 'Shop', '--redirect', 'https://shop.example/cb', '--json'),
    ).toBe(0);
    const shop = JSON.parse(output.join('')) as {
      id: string;
      secret: string;
      redirect: string;
      confidential: boolean;
    };
    expect(shop).toMatchObject({ redirect: 'https://shop.example/cb', confidential: true });
    expect(shop.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);

    expect(
      await tollgate('client', '--public', '--name', 'SPA', '--redirect', 'https://spa.example/cb', '--json'),
    ).toBe(0);
    expect(JSON.parse(output.join(''))).toMatchObject({ secret: null, confidential: false });

    // RFC 8252: a native app (public client) may register a private-use scheme or a loopback redirect.
    expect(
      await tollgate(
        'client',
        '--public',
        '--name',
        'Desktop',
        '--redirect',
        'com.example.app:/cb',
        '--json',
      ),
    ).toBe(0);
    expect(JSON.parse(output.join(''))).toMatchObject({
      redirect: 'com.example.app:/cb',
      confidential: false,
    });
    expect(
      await tollgate(
        'client',
        '--public',
        '--name',
        'CLI',
        '--redirect',
        'http://127.0.0.1/callback',
        '--json',
      ),
    ).toBe(0);

    expect(
      await tollgate(
        'client',
        '--first-party',
        '--name',
        'Our app',
        '--redirect',
        'https://app.example/cb',
        '--scopes',
        'check-status',
        '--grant-types',
        'authorization_code,refresh_token',
        '--json',
      ),
    ).toBe(0);
    expect(JSON.parse(output.join(''))).toMatchObject({
      first_party: true,
      scopes: ['check-status'],
      grant_types: ['authorization_code', 'refresh_token'],
    });

    expect(
      await tollgate(
        'client',
        '--public',
        '--require-par',
        '--name',
        'Strict',
        '--redirect',
        'https://app.example/cb',
        '--json',
      ),
    ).toBe(0);
    expect(JSON.parse(output.join(''))).toMatchObject({ require_pushed_authorization_requests: true });

    expect(await tollgate('client', '--password', '--name', 'Mobile')).toBe(0);
    expect(output.join('\n')).toMatch(/Client ID: \S+\nClient secret: \S+/);

    expect(await tollgate('client', '--personal', '--name', 'PAT', '--json')).toBe(0);
    expect(JSON.parse(output.join(''))).toMatchObject({ personal_access_client: true });
  });

  it('client --resource-server marks a confidential client that may introspect any access token', async () => {
    const args = [
      'client',
      '--resource-server',
      '--name',
      'Orders API',
      '--redirect',
      'https://api.example/cb',
    ];
    expect(await tollgate(...args, '--json')).toBe(0);
    const created = JSON.parse(output.join(''));
    expect(created).toMatchObject({ name: 'Orders API', resource_server: true, confidential: true });
    const row = (await rows()).find((r) => r.id === created.id)!;
    expect(row.resource_server).toBe(1);
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(
      await tollgate(
        'client',
        '--resource-server',
        '--public',
        '--name',
        'x',
        '--redirect',
        'https://x.example',
      ),
    ).toBe(1);
    expect(await tollgate('client', '--name', 'a\u0001b', '--redirect', 'https://x.example')).toBe(1);
  });

  it('client --device makes a public client of the device grant (RFC 8628), with refresh and no redirect', async () => {
    expect(await tollgate('client', '--device', '--name', 'Order TV')).toBe(0);
    const text = output.join('\n');
    expect(text).toContain('Device client created successfully.');
    expect(text).toContain('Client secret: (none: public client)');
    const id = /Client ID: (\S+)/.exec(text)![1]!;
    const row = (await rows()).find((r) => r.id === id)!;
    expect(row).toMatchObject({ name: 'Order TV', secret: null, redirect: '' });
    expect(JSON.parse(row.grant_types!)).toEqual([
      'urn:ietf:params:oauth:grant-type:device_code',
      'refresh_token',
    ]);

    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await tollgate('client', '--device', '--password', '--name', 'x')).toBe(1);
    expect(await tollgate('client', '--device', '--name', 'x', '--redirect', 'https://x.example')).toBe(1);
    expect(await tollgate('client', '--device', '--resource-server', '--name', 'x')).toBe(1);
  });

  it('client --post-logout-redirect and --backchannel-logout register the logout URIs (checked as registration checks them)', async () => {
    expect(
      await tollgate(
        'client',
        '--name',
        'Portal',
        '--redirect',
        'https://portal.example/cb',
        '--post-logout-redirect',
        'https://portal.example/bye,https://portal.example/again',
        '--backchannel-logout',
        'https://portal.example/backchannel',
        '--json',
      ),
    ).toBe(0);
    const { id } = JSON.parse(output.join('')) as { id: string };
    const { db, close } = connect(database.url);
    try {
      const row = await db
        .selectFrom('oauth_client_logout')
        .selectAll()
        .where('client_id', '=', id)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(row.post_logout_redirect_uris)).toEqual([
        'https://portal.example/bye',
        'https://portal.example/again',
      ]);
      expect(row).toMatchObject({
        backchannel_logout_uri: 'https://portal.example/backchannel',
        backchannel_logout_session_required: 1,
      });
    } finally {
      await close();
    }
    const errors: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      errors.push(String(chunk));
      return true;
    });
    const count = (await rows()).length;
    const bad = ['client', '--name', 'x', '--redirect', 'https://x.example/cb'];
    expect(await tollgate(...bad, '--backchannel-logout', 'https://x.example/bc#frag')).toBe(1);
    expect(await tollgate(...bad, '--post-logout-redirect', 'not a url')).toBe(1);
    expect(errors.join('')).toContain('backchannel_logout_uri must be an absolute http or https URL');
    expect(errors.join('')).toContain('post_logout_redirect_uris:');
    // Refused before the client is made.
    expect(await rows()).toHaveLength(count);
  });

  it('client refuses a bad redirect and an unknown user', async () => {
    const errors: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      errors.push(String(chunk));
      return true;
    });
    expect(await tollgate('client', '--name', 'x', '--redirect', 'not a url')).toBe(1);
    expect(await tollgate('client', '--name', 'x', '--redirect', 'https://x.example', '--user', '999')).toBe(
      1,
    );
    expect(errors.join('')).toContain('No user with id 999');
    // Private-use schemes are for public clients; a public client's http must stay on loopback.
    expect(await tollgate('client', '--name', 'x', '--redirect', 'com.example.app:/cb')).toBe(1);
    expect(await tollgate('client', '--public', '--name', 'x', '--redirect', 'http://app.example/cb')).toBe(
      1,
    );
    expect(await tollgate('client', '--public', '--name', 'x', '--redirect', 'javascript:alert(1)')).toBe(1);
    expect(errors.join('')).toContain('public (native app) clients');
    expect(
      await tollgate('client', '--name', 'x', '--redirect', 'https://x.example', '--scopes', 'launch'),
    ).toBe(1);
    expect(
      await tollgate('client', '--name', 'x', '--redirect', 'https://x.example', '--grant-types', 'magic'),
    ).toBe(1);
    expect(errors.join('')).toContain('"launch" is not a scope');
    expect(errors.join('')).toContain('"magic" is not one of');
  });

  it('client:registration-token prints an initial access token once and stores only its SHA-256, with its expiry', async () => {
    const before = Date.now();
    expect(await tollgate('client:registration-token', '--expires', '600', '--json')).toBe(0);
    const { token, expires_at } = JSON.parse(output.join('')) as { token: string; expires_at: string };
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const { db, close } = connect(database.url);
    try {
      const stored = await db.selectFrom('oauth_registration_tokens').selectAll().execute();
      expect(stored).toHaveLength(1);
      expect(stored[0]!.id).toBe(createHash('sha256').update(token).digest('hex'));
      expect(stored[0]!.expires_at).toBe(expires_at);
    } finally {
      await close();
    }
    const lifetime = Date.parse(expires_at) - before;
    expect(lifetime).toBeGreaterThan(590_000);
    expect(lifetime).toBeLessThan(660_000);
    expect(await tollgate('client:registration-token', '--expires', '0')).toBe(1);
  });

  it('purge deletes revoked and expired rows (--revoked, --expired, --hours)', async () => {
    const { db, close } = connect(database.url);
    const client = (await rows())[0]!;
    const long = new Date(Date.now() + 86_400_000).toISOString();
    const old = new Date(Date.now() - 30 * 86_400_000).toISOString();
    const now = new Date().toISOString();
    const token = (id: string, revoked: number, expires: string) => ({
      id,
      user_id: null,
      client_id: client.id,
      name: null,
      scopes: '[]',
      revoked,
      created_at: now,
      updated_at: now,
      expires_at: expires,
    });
    try {
      await db
        .insertInto('oauth_access_tokens')
        .values([token('live', 0, long), token('revoked', 1, long), token('expired', 0, old)])
        .execute();
      expect(await tollgate('purge', '--revoked')).toBe(0);
      expect(output.join('')).toContain('1 access tokens');
      expect(await tollgate('purge', '--expired', '--hours', '24', '--fast')).toBe(0);
      const left = await db.selectFrom('oauth_access_tokens').select('id').execute();
      expect(left.map((r) => r.id)).toEqual(['live']);
    } finally {
      await close();
    }
  });

  it('token:create prints a personal access token that the API accepts, with its scopes only', async () => {
    expect(await tollgate('user:create', '--email', 'grace@example.com', '--password', 'correct horse')).toBe(
      0,
    );
    expect(
      await tollgate(
        'token:create',
        '--user',
        'grace@example.com',
        '--name',
        'deploy script',
        '--scopes',
        'check-status',
        '--json',
      ),
    ).toBe(0);
    const created = JSON.parse(output.join('')) as { accessToken: string; name: string; scopes: string[] };
    expect(created).toMatchObject({ name: 'deploy script', scopes: ['check-status'] });

    const app = await createApp();
    await app.boot();
    try {
      const call = (method: string) =>
        app.fetch(
          new Request('http://localhost/api/orders', {
            method,
            headers: { Authorization: `Bearer ${created.accessToken}`, Accept: 'application/json' },
          }),
        );
      expect((await call('GET')).status).toBe(200);
      expect((await call('POST')).status).toBe(403);
    } finally {
      await app.close();
    }

    expect(await tollgate('token:create', '--user', 'grace@example.com', '--name', 'human')).toBe(0);
    expect(output.join('\n')).toMatch(/created for grace@example.com[\s\S]*Scopes: \(none\)[\s\S]*\neyJ/);
  });

  it('token:create refuses an unknown user and an unknown scope with exit code 1', async () => {
    const errors: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      errors.push(String(chunk));
      return true;
    });
    expect(await tollgate('token:create', '--user', 'nobody@example.com', '--name', 'x')).toBe(1);
    expect(
      await tollgate('token:create', '--user', 'grace@example.com', '--name', 'x', '--scopes', 'launch'),
    ).toBe(1);
    expect(errors.join('')).toContain('No user with the e-mail nobody@example.com.');
    expect(errors.join('')).toMatch(/launch/);
  });

  it('client reads its answers from piped stdin', () => {
    const result = spawnSync(process.execPath, [resolve('bin/tollgate.js'), 'client', '--json'], {
      input: 'Piped App\nhttps://piped.example/cb\n',
      env: { ...process.env },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.stderr).toBe('');
    const client = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as { name: string; redirect: string };
    expect(client).toMatchObject({ name: 'Piped App', redirect: 'https://piped.example/cb' });
    expect(existsSync(join(storage, 'oauth-private.key'))).toBe(true);
  });
});
