import type { CompiledQuery, DatabaseConnection, QueryResult } from 'kysely';
import { failSpan, SpanKind, tracedLeaf, tracer, tracingEnabled } from '../core/tracing.js';

export type DatabaseSystem = 'sqlite' | 'postgresql';

/** The statement's verb and, when the SQL names one plainly, its table: `SELECT users`, `BEGIN`. */
function summaryOf(sql: string): { operation: string; summary: string } {
  const operation = (/^\s*(\w+)/.exec(sql)?.[1] ?? 'query').toUpperCase();
  const table = /\b(?:from|into|update)\s+"?([\w.]+)"?/i.exec(sql)?.[1];
  return { operation, summary: table ? `${operation} ${table}` : operation };
}

/** A client span's name and attributes for `sql` (OpenTelemetry's database conventions). */
export function querySpan(system: DatabaseSystem, sql: string) {
  const { operation, summary } = summaryOf(sql);
  const attributes = {
    'db.system.name': system,
    'db.operation.name': operation,
    'db.query.summary': summary,
    // Parameterised: the values stay out of the span.
    'db.query.text': sql,
  };
  return { name: summary, options: { kind: SpanKind.CLIENT, attributes } };
}

/**
 * A driver's connection whose queries each run in a client span while tracing is on; off, a
 * query costs one flag test more. `inner` is what the wrapped driver gets back.
 */
export class TracedConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly system: DatabaseSystem,
  ) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (!tracingEnabled()) return this.inner.executeQuery<R>(query);
    const { name, options } = querySpan(this.system, query.sql);
    return tracedLeaf(name, options, () => this.inner.executeQuery<R>(query));
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    if (!tracingEnabled()) {
      yield* this.inner.streamQuery<R>(query, chunkSize);
      return;
    }
    const { name, options } = querySpan(this.system, query.sql);
    // Not the active span: the caller's code runs between chunks.
    const span = tracer().startSpan(name, options);
    try {
      yield* this.inner.streamQuery<R>(query, chunkSize);
    } catch (err) {
      failSpan(span, err);
      throw err;
    } finally {
      span.end();
    }
  }
}
