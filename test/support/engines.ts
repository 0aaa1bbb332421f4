/**
 * The database engines a database-backed suite runs on, both in the same test run:
 * `describe.each(ENGINES)('… (%s)', (engine) => …)`, with `engine` passed to whatever opens the
 * database (`createTestDatabase(engine)`, `createTestApp({ engine })`, the harnesses).
 */
export const ENGINES = ['sqlite', 'postgres'] as const;

export type Engine = (typeof ENGINES)[number];

/**
 * The engine of a suite whose behaviour cannot differ by engine (pages, HTML, routing, CLI output,
 * protocol checks on top of stores that other suites loop): it runs once, in the first run.
 */
export const ANY_ENGINE: Engine = 'sqlite';

/** Where the postgres engine goes when TEST_DATABASE_URL is unset: the local server's superuser. */
export const DEFAULT_POSTGRES_SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';

/** The PostgreSQL server each postgres test database is created on (and dropped from). */
export function postgresServerUrl(): string {
  return process.env.TEST_DATABASE_URL || DEFAULT_POSTGRES_SERVER;
}

/** Each case on each engine, for a suite that already loops something else (`describe.each`). */
export function acrossEngines<Case extends object>(cases: readonly Case[]): (Case & { engine: Engine })[] {
  return ENGINES.flatMap((engine) => cases.map((each) => ({ ...each, engine })));
}
