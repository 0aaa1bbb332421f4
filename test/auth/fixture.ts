import { currentUser } from '../../src/auth/context.js';
import { type AuthOptions, authProvider } from '../../src/auth/index.js';
import { Users } from '../../src/auth/users.js';
import type { DeepPartial, TollgateConfig } from '../../src/core/config.js';
import type { Application } from '../../src/kernel/application.js';
import { createTestApp, type TestApp } from '../support/app.js';
import type { Engine } from '../support/engines.js';

export const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };

/**
 * The auth provider on a fresh database, Ada registered, and a few probe routes:
 * `GET /me` (web) tells who the session user is, `POST /notes` (web) changes the session,
 * `GET /private` needs `auth`.
 */
export async function authApp(
  options: {
    /** The database engine (see test/support/engines.ts); default the process's one. */
    engine?: Engine;
    auth?: AuthOptions;
    config?: DeepPartial<TollgateConfig>;
    setup?: (app: Application) => void | Promise<void>;
  } = {},
): Promise<TestApp> {
  const t = await createTestApp({
    engine: options.engine,
    providers: [authProvider(options.auth)],
    config: options.config,
    setup: async (app) => {
      app.router.get('/me', (c) => c.json({ user: currentUser(c)?.email ?? null })).middleware('web');
      app.router
        .post('/notes', async (c) => {
          const body = await c.req.parseBody();
          c.get('session')!.put('note', body.note);
          return c.json({ note: body.note ?? null });
        })
        .middleware('web');
      app.router.get('/private', (c) => c.text(`hello ${currentUser(c)?.name}`)).middleware('web', 'auth');
      await options.setup?.(app);
    },
  });
  await t.app.container.make(Users).create(ADA);
  return t;
}

export async function countRows(t: TestApp, table: 'users' | 'sessions'): Promise<number> {
  const row = await t.app.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
