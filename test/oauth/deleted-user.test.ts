import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Users } from '../../src/auth/users.js';
import { Clients } from '../../src/oauth/index.js';
import { type ReferenceServer, startReferenceServer } from '../browser/server.js';
import { ENGINES } from '../support/engines.js';

/**
 * Deletes the user row without the cascades (as an application whose own users table has no
 * foreign keys from the token tables would, or an operator's script): their tokens stay.
 */
async function deleteBehindTheAppsBack(server: ReferenceServer, id: number): Promise<void> {
  const { db } = server.app;
  if (server.app.engine === 'sqlite') {
    await sql`PRAGMA foreign_keys = OFF`.execute(db);
    await db.deleteFrom('users').where('id', '=', id).execute();
    await sql`PRAGMA foreign_keys = ON`.execute(db);
    return;
  }
  await db.transaction().execute(async (trx) => {
    await sql`SET LOCAL session_replication_role = replica`.execute(trx);
    await trx.deleteFrom('users').where('id', '=', id).execute();
  });
}

/**
 * A user deleted behind the application's back (straight from the database, so no event revoked
 * their tokens): their refresh token names a grant nobody holds. RFC 6749 §5.2: `invalid_grant`,
 * never a 500. The reference service, with its plans and billing, is where it answered 500.
 */
describe.each(ENGINES)('a refresh token whose user was deleted in the database (%s)', (engine) => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await startReferenceServer({}, { engine });
  });
  afterAll(async () => {
    await server?.stop();
  });

  for (const scope of ['check-status', 'openid check-status']) {
    it(`RFC 6749 §5.2: invalid_grant (scope "${scope}")`, async () => {
      const { client, plainSecret } = await server.app.container
        .make(Clients)
        .create({ name: 'First-party app', redirect: '', password: true });
      const email = `gone-${scope.length}@example.com`;
      const user = await server.app.container
        .make(Users)
        .create({ name: 'Gone', email, password: 'correct horse battery' });
      const token = (body: Record<string, string>) =>
        fetch(`${server.url}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ client_id: client.id, client_secret: plainSecret!, ...body }),
        });
      const first = await token({
        grant_type: 'password',
        username: email,
        password: 'correct horse battery',
        scope,
      });
      expect(first.status).toBe(200);
      const { refresh_token } = (await first.json()) as { refresh_token: string };

      await deleteBehindTheAppsBack(server, user.id);

      const res = await token({ grant_type: 'refresh_token', refresh_token });
      expect(await res.json()).toMatchObject({ error: 'invalid_grant' });
      expect(res.status).toBe(400);
    });
  }
});
