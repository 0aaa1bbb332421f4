import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Connection, connect } from '../../src/database/connection.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { ENGINES, postgresServerUrl } from '../support/engines.js';

/**
 * A query whose backend PostgreSQL terminates fails; the connection it ran on must not serve the
 * next query (the pool hands out the client released last first).
 */
// Only PostgreSQL has sessions to end (a SQLite database is a file inside the process).
describe.each(ENGINES.filter((engine) => engine === 'postgres'))(
  'a %s session ended under a query',
  (engine) => {
    let database: TestDatabase;
    let connection: Connection;
    let admin: pg.Client;

    beforeAll(async () => {
      database = await createTestDatabase(engine);
      connection = connect(database.url);
      admin = new pg.Client({ connectionString: postgresServerUrl() });
      await admin.connect();
    });
    afterAll(async () => {
      await admin?.end();
      await connection?.close();
      await database?.drop();
    });

    it('fails that query only: the very next query runs on another connection', async () => {
      const { db } = connection;
      for (let round = 0; round < 5; round++) {
        const sleeping = sql`select pg_sleep(30)`.execute(db);
        const failed = sleeping.then(
          () => undefined,
          (err: Error) => err,
        );
        let killed = 0;
        while (killed === 0) {
          const { rowCount } = await admin.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE query = 'select pg_sleep(30)' AND pid <> pg_backend_pid()`,
          );
          killed = rowCount ?? 0;
        }
        expect(await failed).toBeInstanceOf(Error);
        const { rows } = await sql<{ one: number }>`select 1 as one`.execute(db);
        expect(rows).toEqual([{ one: 1 }]);
      }
    });
  },
);
