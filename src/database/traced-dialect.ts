import type { Dialect } from 'kysely';
import type { DatabaseSystem } from './traced-connection.js';
import { TracedDriver } from './traced-driver.js';

/**
 * `dialect` with a span around every query and transaction step when tracing is on, composed
 * through Kysely's `Dialect` and `Driver` interfaces: its driver is wrapped, never altered.
 */
export function tracedDialect(dialect: Dialect, system: DatabaseSystem): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: () => new TracedDriver(dialect.createDriver(), system),
  };
}
