import { afterAll, beforeAll, expect, type MockInstance } from 'vitest';
import { Users } from '../../src/auth/users.js';
import { type ReferenceServer, startReferenceServer } from '../browser/server.js';
import { Browser, tokenIn } from '../oauth/support.js';
import type { Engine } from '../support/engines.js';

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
 * One reference server per test file, on the engine given (booted in `beforeAll`, stopped in `afterAll`), Ada
 * registered, `seed` run, then Ada logged in and, given `csrfPage`, that page's CSRF token read.
 * The returned object is filled in once `beforeAll` has run.
 */
export function useDashboard(options: {
  engine: Engine;
  csrfPage?: string;
  seed?: (d: Dashboard) => Promise<void>;
}): Dashboard {
  const d = { csrf: '' } as Dashboard;
  beforeAll(async () => {
    d.server = await startReferenceServer({}, { engine: options.engine });
    d.userId = Number((await d.server.app.container.make(Users).create(ADA)).id);
    await options.seed?.(d);
    d.ada = new Browser(d.server.url);
    await d.ada.login(ADA);
    if (options.csrfPage) d.csrf = tokenIn(await (await d.ada.get(options.csrfPage)).text());
  }, 60_000);
  afterAll(async () => d.server?.stop());
  return d;
}

/**
 * Ada deletes the record at `path` (a form post with `_method=DELETE`) from two sessions at once —
 * `d`'s and another browser's, so that each flash is its own — both requests finding it before
 * either deletes it (`hold` puts a `holdUntilBoth` on the lookup once the second session is signed
 * in). Both must redirect to `back`; returns which of `flashes` each session's page then shows
 * ('none' for neither), sorted.
 */
export async function deleteFromTwoSessions(
  d: Pick<Dashboard, 'server' | 'ada' | 'csrf'>,
  path: string,
  hold: () => MockInstance,
  back: string,
  flashes: Record<string, string>,
): Promise<string[]> {
  const other = new Browser(d.server.url);
  await other.login(ADA);
  const sessions = [d, { ada: other, csrf: tokenIn(await (await other.get(back)).text()) }];
  const lookup = hold();
  const answers = await Promise.all(
    sessions.map(({ ada, csrf }) => ada.post(path, { _token: csrf, _method: 'DELETE' })),
  ).finally(() => lookup.mockRestore());
  for (const res of answers) {
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(back);
  }
  const pages = await Promise.all(sessions.map(async ({ ada }) => (await ada.get(back)).text()));
  const shown = (page: string) =>
    Object.keys(flashes).find((name) => page.includes(flashes[name]!)) ?? 'none';
  return pages.map(shown).sort();
}
