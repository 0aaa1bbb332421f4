import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentUser } from '../../src/auth/context.js';
import { authProvider } from '../../src/auth/provider.js';
import { tableUsers } from '../../src/auth/table-users.js';
import { Users } from '../../src/auth/users.js';
import { listen, type RunningServer } from '../../src/kernel/server.js';
import { Clients } from '../../src/oauth/clients/clients.js';
import { installKeys } from '../../src/oauth/keys/key-files.js';
import { PersonalAccessTokens } from '../../src/oauth/personal/personal-access-tokens.js';
import { oauthProvider } from '../../src/oauth/provider.js';
import { Browser, insecure } from '../oauth/support.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { ENGINES } from '../support/engines.js';

// The application's own hashing (scrypt here, bcrypt in many apps): "salt:hash" in hex.
const hash = (password: string, salt = randomBytes(8).toString('hex')) =>
  `${salt}:${scryptSync(password, salt, 32).toString('hex')}`;
const verify = async (stored: string, password: string) => {
  const [salt, digest] = stored.split(':');
  return timingSafeEqual(
    Buffer.from(digest!, 'hex'),
    Buffer.from(hash(password, salt).split(':')[1]!, 'hex'),
  );
};

const accountsMigrations = fileURLToPath(new URL('./fixtures/accounts', import.meta.url));

describe.each(ENGINES)(
  'your own users: an existing `accounts` table behind a users provider (%s)',
  (engine) => {
    let t: TestApp;
    let server: RunningServer;

    beforeAll(async () => {
      const users = tableUsers({
        table: 'accounts',
        columns: { id: 'account_id', name: 'full_name', email: 'mail', password: 'pass_hash' },
        hashPassword: async (password) => hash(password),
        verifyPassword: verify,
      });
      t = await createTestApp({
        engine,
        config: { oauth: { scopes: { read: 'Read' } } },
        providers: [
          { name: 'app.accounts', migrations: [accountsMigrations] },
          authProvider({ users }),
          oauthProvider(),
        ],
        setup: (app) => {
          installKeys(app.config.storagePath, app.config.oauth.signingAlgorithm);
          app.router.get('/api/me', (c) => c.json(currentUser(c))).middleware('auth:api');
        },
      });
      await t.app.db
        .withTables<{ accounts: Record<string, unknown> }>()
        .insertInto('accounts')
        .values({
          account_id: 7,
          full_name: 'Grace Hopper',
          mail: 'grace@example.com',
          pass_hash: hash('cobol 1959'),
        })
        .execute();
      server = await listen(t.app, '127.0.0.1', 0);
    });
    afterAll(async () => {
      await server?.close();
      await t?.close();
    });

    it('runs none of our migrations on users: no `users` table, the accounts table untouched', async () => {
      const tables = await t.app.db.introspection.getTables();
      expect(tables.map((table) => table.name)).not.toContain('users');
      const accounts = tables.find((table) => table.name === 'accounts')!;
      expect(accounts.columns.map((c) => c.name).sort()).toEqual([
        'account_id',
        'full_name',
        'mail',
        'pass_hash',
      ]);
    });

    it('logs in through the login page with the application’s own password hashing', async () => {
      const browser = new Browser(server.url);
      await expect(browser.login({ email: 'grace@example.com', password: 'wrong' })).rejects.toThrow();
      await browser.login({ email: 'grace@example.com', password: 'cobol 1959' });
      const dashboard = await browser.get('/dashboard');
      expect(dashboard.status).toBe(200);
      expect(await dashboard.text()).toContain('Grace Hopper');
    });

    it('issues a personal access token and a password-grant token that the guard resolves to the account', async () => {
      const clients = t.app.container.make(Clients);
      await clients.create({ name: 'Personal', redirect: 'http://localhost', personalAccess: true });
      const grace = await t.app.container.make(Users).find(7);
      const { accessToken } = await t.app.container
        .make(PersonalAccessTokens)
        .create(grace!.id, 'cli', ['read']);
      const viaPersonal = await fetch(`${server.url}/api/me`, {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      });
      expect(await viaPersonal.json()).toMatchObject({ id: 7, email: 'grace@example.com' });

      const { client, plainSecret: secret } = await clients.create({
        name: 'First party',
        redirect: 'http://127.0.0.1/cb',
        password: true,
      });
      const as = {
        issuer: server.url,
        token_endpoint: `${server.url}/oauth/token`,
      } as oauth.AuthorizationServer;
      const response = await oauth.genericTokenEndpointRequest(
        as,
        { client_id: client.id },
        oauth.ClientSecretPost(secret!),
        'password',
        new URLSearchParams({ username: 'grace@example.com', password: 'cobol 1959', scope: 'read' }),
        insecure,
      );
      const tokens = await oauth.processGenericTokenEndpointResponse(as, { client_id: client.id }, response);
      const me = await fetch(`${server.url}/api/me`, {
        headers: { authorization: `Bearer ${tokens.access_token}`, accept: 'application/json' },
      });
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ id: 7, name: 'Grace Hopper', email: 'grace@example.com' });
    });
  },
);
