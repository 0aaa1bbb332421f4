import type { DatabaseConnection, Driver, QueryCompiler, TransactionSettings } from 'kysely';
import { SpanKind, tracedLeaf } from '../core/tracing.js';
import { type DatabaseSystem, TracedConnection } from './traced-connection.js';

type CompileQuery = QueryCompiler['compileQuery'];

/**
 * `inner` with every connection it hands out wrapped in a {@link TracedConnection}, and its
 * transaction control (begin, commit, rollback, savepoints) in spans of their own. The inner
 * driver always gets its own connection back.
 */
export class TracedDriver implements Driver {
  // One wrapper per connection: a pool hands the same connection out again, SQLite always.
  readonly #wrappers = new WeakMap<DatabaseConnection, TracedConnection>();

  constructor(
    private readonly inner: Driver,
    private readonly system: DatabaseSystem,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection();
    let wrapper = this.#wrappers.get(connection);
    if (!wrapper) {
      wrapper = new TracedConnection(connection, this.system);
      this.#wrappers.set(connection, wrapper);
    }
    return wrapper;
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(innerOf(connection));
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.#control('BEGIN', () => this.inner.beginTransaction(innerOf(connection), settings));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#control('COMMIT', () => this.inner.commitTransaction(innerOf(connection)));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#control('ROLLBACK', () => this.inner.rollbackTransaction(innerOf(connection)));
  }

  savepoint(connection: DatabaseConnection, name: string, compile: CompileQuery): Promise<void> {
    const savepoint = this.#optional('savepoint');
    return this.#control('SAVEPOINT', () => savepoint(innerOf(connection), name, compile));
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: CompileQuery): Promise<void> {
    const rollbackTo = this.#optional('rollbackToSavepoint');
    return this.#control('ROLLBACK', () => rollbackTo(innerOf(connection), name, compile));
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: CompileQuery): Promise<void> {
    const release = this.#optional('releaseSavepoint');
    return this.#control('RELEASE', () => release(innerOf(connection), name, compile));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }

  #control(operation: string, run: () => Promise<void>): Promise<void> {
    const attributes = {
      'db.system.name': this.system,
      'db.operation.name': operation,
      'db.query.summary': operation,
    };
    return tracedLeaf(operation, { kind: SpanKind.CLIENT, attributes }, run);
  }

  #optional(method: 'savepoint' | 'rollbackToSavepoint' | 'releaseSavepoint') {
    const fn = this.inner[method];
    if (!fn) throw new Error(`The \`${method}\` method is not supported by this driver`);
    return fn.bind(this.inner);
  }
}

function innerOf(connection: DatabaseConnection): DatabaseConnection {
  return connection instanceof TracedConnection ? connection.inner : connection;
}
