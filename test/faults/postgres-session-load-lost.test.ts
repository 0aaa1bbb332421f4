import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADA, authorizePath, Browser, type OAuthTestApp, oauthApp } from '../oauth/support.js';
import { ENGINES, postgresServerUrl } from '../support/engines.js';

/**
 * PostgreSQL ends the backend of a page's first query — the authorize page's session, loaded
 * joined with its user — while it runs (a restart, a failover, an operator's
 * `pg_terminate_backend`): the page answers 503 with Retry-After and no trace of the error, and
 * the next request gets the page.
 */
// Only PostgreSQL has backends to end (a SQLite database is a file inside the process).
describe.each(ENGINES.filter((engine) => engine === 'postgres'))(
  'a %s backend ended under the session load',
  (engine) => {
    let t: OAuthTestApp;
    let browser: Browser;
    let clientId: string;
    let database: string;
    let admin: pg.Client;

    beforeAll(async () => {
      t = await oauthApp({ engine });
      clientId = (await t.createClient({ name: 'Order Tracker' })).client.id;
      browser = new Browser(t.url);
      await browser.login(ADA);
      const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(t.app.db);
      database = rows[0]!.name;
      admin = new pg.Client({ connectionString: postgresServerUrl() });
      await admin.connect();
    });
    afterAll(async () => {
      await admin?.end();
      await t?.stop();
    });

    const authorize = () => browser.get(authorizePath(clientId));

    it('the authorize page answers 503 with Retry-After and no stack trace; the next request gets the page', async () => {
      // The sessions table held, so the page's session load waits on it: its backend is the one to end.
      const url = new URL(postgresServerUrl());
      url.pathname = `/${database}`;
      const holder = new pg.Client({ connectionString: url.toString() });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('LOCK TABLE sessions IN ACCESS EXCLUSIVE MODE');
        const page = authorize();
        let ended = 0;
        for (let tries = 0; ended === 0; tries++) {
          expect(tries, 'the session load never waited on the lock').toBeLessThan(500);
          const { rowCount } = await admin.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = $1 AND wait_event_type = 'Lock' AND query LIKE '%from "sessions" as "s" left join%'`,
            [database],
          );
          ended = rowCount ?? 0;
          if (ended === 0) await sleep(10);
        }
        const res = await page;
        expect(res.status).toBe(503);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        const body = await res.text();
        expect(body).toContain('Service Unavailable');
        expect(body).not.toMatch(/terminat|\.ts:\d+|\bat \S+ \(|node_modules/i);
      } finally {
        await holder.query('ROLLBACK');
        await holder.end();
      }
      const next = await authorize();
      expect(next.status).toBe(200);
      expect(await next.text()).toContain('Order Tracker');
    });
  },
);
