import type { CompiledQuery, DatabaseConnection, Dialect, QueryResult } from 'kysely';
import { SpanKind, traced, tracingEnabled } from '../core/tracing.js';

/** The statement's verb and, when the SQL names one plainly, its table: `SELECT users`, `BEGIN`. */
function summaryOf(sql: string): { operation: string; summary: string } {
  const operation = (/^\s*(\w+)/.exec(sql)?.[1] ?? 'query').toUpperCase();
  const table = /\b(?:from|into|update)\s+"?([\w.]+)"?/i.exec(sql)?.[1];
  return { operation, summary: table ? `${operation} ${table}` : operation };
}

const traced_ = new WeakSet<DatabaseConnection>();

/** Each query of `connection` in a client span (OpenTelemetry's database conventions) while tracing is on. */
function traceConnection(connection: DatabaseConnection, system: string): DatabaseConnection {
  if (traced_.has(connection)) return connection;
  traced_.add(connection);
  const execute = connection.executeQuery.bind(connection);
  connection.executeQuery = <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
    if (!tracingEnabled()) return execute<R>(query);
    const { operation, summary } = summaryOf(query.sql);
    const attributes = {
      'db.system.name': system,
      'db.operation.name': operation,
      'db.query.summary': summary,
      // Parameterised: the values stay out of the span.
      'db.query.text': query.sql,
    };
    return traced(summary, { kind: SpanKind.CLIENT, attributes }, () => execute<R>(query));
  };
  return connection;
}

/**
 * `dialect` with a span around every query (transactions' `begin`/`commit` too) when tracing is
 * on; off, a query costs one flag test more. The connections Kysely's driver hands out are
 * wrapped once, where Kysely wraps them for its own query log.
 */
export function tracedDialect(dialect: Dialect, system: 'sqlite' | 'postgresql'): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: () => {
      const driver = dialect.createDriver();
      const acquire = driver.acquireConnection.bind(driver);
      driver.acquireConnection = async () => traceConnection(await acquire(), system);
      return driver;
    },
  };
}
