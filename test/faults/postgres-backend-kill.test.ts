import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildServer, startChildServer } from '../security/child.js';
import { ENGINES, postgresServerUrl } from '../support/engines.js';

/**
 * A PostgreSQL restart or failover ends every backend, idle or busy. The service must answer the
 * requests that were using one with a 5xx, reconnect, and serve on — not die of an unhandled
 * `error` event on a client the pool had checked out.
 */
// Only PostgreSQL has backends to kill (a SQLite database is a file inside the process).
describe.each(ENGINES.filter((engine) => engine === 'postgres'))(
  '%s backends killed under load',
  (engine) => {
    let server: ChildServer;
    let admin: pg.Client;

    beforeAll(async () => {
      server = await startChildServer(engine, { TEST_LOG_LEVEL: 'silent' });
      admin = new pg.Client({ connectionString: postgresServerUrl() });
      await admin.connect();
    });

    afterAll(async () => {
      const name = server ? new URL(server.databaseUrl).pathname.slice(1) : undefined;
      if (server?.exitCode() === null) await server.stop();
      // A crashed server left its database behind.
      else if (name) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin?.end();
    });

    it('every backend terminated every 150 ms for 3 s: the requests that used one answer 503 with Retry-After, the process lives and answers 200 after', async () => {
      const name = new URL(server.databaseUrl).pathname.slice(1);
      const statuses = new Map<number, number>();
      const unavailable = { answers: 0, retryAfter: 0 };
      let running = true;
      // Light load: each GET /login starts a session, one INSERT on a pooled connection; a token
      // request for an unknown client counts the attempt and looks the client up.
      const requests = [
        () => fetch(`${server.url}/login`),
        () =>
          fetch(`${server.url}/oauth/token`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({
              grant_type: 'client_credentials',
              client_id: 'nobody',
              client_secret: 'x',
            }),
          }),
      ];
      const worker = async (_: unknown, i: number) => {
        while (running && server.exitCode() === null) {
          const status = await requests[i % 2]!()
            .then(async (res) => {
              await res.arrayBuffer();
              if (res.status === 503) {
                unavailable.answers++;
                if (Number(res.headers.get('retry-after')) > 0) unavailable.retryAfter++;
              }
              return res.status;
            })
            .catch(() => 0);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      };
      const workers = Array.from({ length: 6 }, worker);
      let terminated = 0;
      for (let sweep = 0; sweep < 20 && server.exitCode() === null; sweep++) {
        const { rowCount } = await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [name],
        );
        terminated += rowCount ?? 0;
        await new Promise((done) => setTimeout(done, 150));
      }
      running = false;
      await Promise.all(workers);

      expect(server.exitCode()).toBeNull();
      expect(terminated).toBeGreaterThan(0);
      // Answers during the sweeps were what they are without a fault (200; 401 or 429 for the
      // unknown client) or 503 with Retry-After, never a 500 or a dropped connection.
      expect([...statuses.keys()].filter((status) => ![200, 401, 429, 503].includes(status))).toEqual([]);
      expect(unavailable.answers).toBeGreaterThan(0);
      expect(unavailable.retryAfter).toBe(unavailable.answers);
      let after = 0;
      for (let attempt = 0; attempt < 3 && after !== 200; attempt++) {
        after = (await fetch(`${server.url}/login`)).status;
      }
      expect(after).toBe(200);
    });
  },
);
