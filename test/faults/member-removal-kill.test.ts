import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Organizations } from '../../src/organizations/organizations.js';
import { type Member, type OrganizationsTestApp, organizationsApp } from '../organizations/support.js';
import { ENGINES, postgresServerUrl } from '../support/engines.js';

/**
 * Removing a member ends their membership and their tokens for the organization. PostgreSQL ends
 * the connection doing it (a failover, an operator's pg_terminate_backend): either both ended or
 * neither, never a removed member whose tokens still work, and the service answers the next request.
 */
// Only PostgreSQL has backends to kill (a SQLite database is a file inside the process).
describe.each(ENGINES.filter((engine) => engine === 'postgres'))(
  'a %s connection killed while a member is removed',
  (engine) => {
    let t: OrganizationsTestApp;
    let admin: pg.Client;
    let locker: pg.Client;
    let owner: Member;
    let acme: number;

    beforeAll(async () => {
      t = await organizationsApp({ oauth: true, engine });
      const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(t.app.db);
      const url = new URL(postgresServerUrl());
      url.pathname = `/${rows[0]!.name}`;
      admin = new pg.Client({ connectionString: url.toString() });
      await admin.connect();
      // Another session: pg_stat_activity is one snapshot for the whole of a transaction.
      locker = new pg.Client({ connectionString: url.toString() });
      await locker.connect();
      owner = await t.member('owner@example.com');
      acme = (await t.app.container.make(Organizations).create(owner.id, 'Acme')).id;
    });
    afterAll(async () => {
      await admin?.end();
      await locker?.end();
      await t?.close();
    });

    const probe = (token: string) =>
      t.request('/probe/credential', {
        headers: { accept: 'application/json', authorization: `Bearer ${token}` },
      });
    const isMember = async (userId: number) =>
      (await t.app.db
        .selectFrom('organization_members')
        .select('id')
        .where('organization_id', '=', acme)
        .where('user_id', '=', userId)
        .executeTakeFirst()) !== undefined;

    it('killed while its tokens are revoked: the member and their token are both kept, and removing again works', async () => {
      const leaver = await t.member('leaver@example.com');
      await t.app.container.make(Organizations).addMember(acme, leaver.id, 'member', owner.id);
      const created = await leaver.json('POST', `/oauth/personal-access-tokens?organization_id=${acme}`, {
        name: 'acme',
        scopes: [],
      });
      expect(created.status).toBe(200);
      const { accessToken, token } = (await created.json()) as { accessToken: string; token: { id: string } };
      expect((await probe(accessToken)).status).toBe(200);

      // Another session holds the token's row, so the revocation waits on it: the connection that
      // waits is the one killed, at the moment the membership's removal and the revocation meet.
      await locker.query('BEGIN');
      await locker.query('SELECT id FROM oauth_access_tokens WHERE id = $1 FOR UPDATE', [token.id]);
      const removal = owner.send(`/organizations/${acme}/members/${leaver.id}/remove`);
      let killed = 0;
      while (killed === 0) {
        const { rowCount } = await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'
            AND query LIKE 'update "oauth_access_tokens" set "revoked"%'`,
        );
        killed = rowCount ?? 0;
        if (killed === 0) await new Promise((r) => setTimeout(r, 10));
      }
      await locker.query('ROLLBACK');
      const answered = await removal;
      expect(answered.status).toBeGreaterThanOrEqual(500);

      // Nothing changed: still a member, the token still works (and is still a live row).
      expect(await isMember(leaver.id)).toBe(true);
      expect((await probe(accessToken)).status).toBe(200);

      // The next request works: the removal goes through, and the token ends with the membership.
      expect((await owner.send(`/organizations/${acme}/members/${leaver.id}/remove`)).status).toBe(200);
      expect(await isMember(leaver.id)).toBe(false);
      expect((await probe(accessToken)).status).toBe(401);
    });
  },
);
