import { afterAll, beforeAll } from 'vitest';
import { Users } from '../../src/auth/users.js';
import { type ReferenceServer, startReferenceServer } from '../browser/server.js';
import { Browser, tokenIn } from '../oauth/support.js';

export const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
export const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };

/** What `useDashboard` fills in before the file's tests run. */
export interface Dashboard {
  server: ReferenceServer;
  /** Ada's id. */
  userId: number;
  /** A browser logged in as Ada. */
  ada: Browser;
  /** The CSRF token of the page given to `useDashboard` (empty when none was given). */
  csrf: string;
}

/**
 * One reference server per test file (booted in `beforeAll`, stopped in `afterAll`), Ada
 * registered, `seed` run, then Ada logged in and, given `csrfPage`, that page's CSRF token read.
 * The returned object is filled in once `beforeAll` has run.
 */
export function useDashboard(
  options: { csrfPage?: string; seed?: (d: Dashboard) => Promise<void> } = {},
): Dashboard {
  const d = { csrf: '' } as Dashboard;
  beforeAll(async () => {
    d.server = await startReferenceServer();
    d.userId = Number((await d.server.app.container.make(Users).create(ADA)).id);
    await options.seed?.(d);
    d.ada = new Browser(d.server.url);
    await d.ada.login(ADA);
    if (options.csrfPage) d.csrf = tokenIn(await (await d.ada.get(options.csrfPage)).text());
  }, 60_000);
  afterAll(async () => d.server?.stop());
  return d;
}
