import type { PostgresCursor, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';

/**
 * The server ended the session (57P01 terminated by an administrator, 57P02/57P03 shutting down,
 * class 08 a connection failure) or the socket closed (an error without SQLSTATE): the client is
 * of no further use.
 */
function sessionLost(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code !== 'string' || code.startsWith('57P') || code.startsWith('08');
}

/**
 * A checked-out client that goes back to the pool discarded once a query of it failed because its
 * session ended. The pool drops a client whose socket it saw close, but the query's error arrives
 * first: released then, the client would be handed to the next caller and fail its query too.
 */
export function dropWhenLost(client: pg.PoolClient): PostgresPoolClient {
  let lost = false;
  function query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  function query<R>(
    sqlOrCursor: string | PostgresCursor<R>,
    parameters?: ReadonlyArray<unknown>,
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof sqlOrCursor !== 'string') return client.query(sqlOrCursor as never) as PostgresCursor<R>;
    const result = client.query(sqlOrCursor, parameters as unknown[]) as unknown as Promise<
      PostgresQueryResult<R>
    >;
    return result.catch((err: unknown) => {
      if (sessionLost(err)) lost = true;
      throw err;
    });
  }
  return { query, release: () => client.release(lost) };
}
