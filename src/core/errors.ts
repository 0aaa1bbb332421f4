import { currentRequestId } from './request-context.js';

/**
 * An error that knows the HTTP response it becomes. `expose` decides whether the message may reach
 * a client; a 5xx never exposes its message.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly expose: boolean;
  readonly body: Record<string, unknown> | undefined;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    message: string,
    options: { body?: Record<string, unknown>; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'HttpError';
    this.status = status;
    this.expose = status < 500;
    this.body = options.body;
    this.headers = options.headers ?? {};
  }

  /**
   * The error as a JSON response (Hono's `HTTPException.getResponse()`): its own `body`, or
   * `{ message }` (a 5xx: `{ message: 'Server Error', request_id }`, the id a client quotes to an
   * operator), with its status and headers.
   */
  getResponse(): Response {
    const body =
      this.body ?? (this.expose ? { message: this.message } : withRequestId({ message: 'Server Error' }));
    return new Response(JSON.stringify(body), {
      status: this.status,
      headers: { 'Content-Type': 'application/json', ...this.headers },
    });
  }
}

/**
 * `body` with the current request's `request_id`, when there is a request: for a server error's
 * generic body (every response also names its request in `X-Request-Id`).
 */
export function withRequestId(body: Record<string, unknown>): Record<string, unknown> {
  const id = currentRequestId();
  return id === undefined ? body : { ...body, request_id: id };
}

/** 422 with Laravel's shape: `{ message, errors: { field: [messages] } }`. */
export class ValidationError extends HttpError {
  readonly errors: Record<string, string[]>;

  /** `message` defaults to Laravel's summary: the first error, "(and 2 more errors)" when there are more. */
  constructor(errors: Record<string, string[]>, message = summary(errors)) {
    super(422, message, { body: { message, errors } });
    this.name = 'ValidationError';
    this.errors = errors;
  }
}

function summary(errors: Record<string, string[]>): string {
  const all = Object.values(errors).flat();
  if (all.length === 0) return 'The given data was invalid.';
  const more = all.length - 1;
  return more === 0 ? all[0]! : `${all[0]} (and ${more} more error${more === 1 ? '' : 's'})`;
}

/** A mistake in how the application is put together: a missing binding, an unknown route name. */
export class ConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigurationError';
  }
}

/**
 * PostgreSQL data exceptions (SQLSTATE class 22) that only the request's own values cause: a NUL
 * byte or a character the encoding refuses (22021, 22P05), a value too long for its column
 * (22001), text that is not a number (22P02), a number out of range (22003). Answered 400, not
 * 500, and not logged as a failure: a client can send them at will.
 */
const INPUT_DATA_EXCEPTIONS = new Set(['22021', '22P05', '22001', '22P02', '22003']);

/** Whether `error` is one of those: the database refused a value the request carried. */
export function isUnstorableInput(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && INPUT_DATA_EXCEPTIONS.has(code);
}

/**
 * A database connection that ended or could not be made: PostgreSQL's shutdown SQLSTATEs (57P01
 * `pg_terminate_backend` or a fast shutdown, 57P02, 57P03 starting up) and connection exceptions
 * (class 08), node-postgres's own messages for a client whose socket closed, and the socket
 * errors of a server that went away. The request that met one is answered 503 with `Retry-After`:
 * the pool opens a new connection for the next.
 */
const CONNECTION_LOST_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
]);
const CONNECTION_LOST_MESSAGE =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/;

/** Seconds a client is asked to wait after a lost database connection (`Retry-After`). */
export const CONNECTION_LOST_RETRY_SECONDS = 1;

/** Whether `error` (or an error it wraps) is a lost database connection. */
export function isConnectionLost(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECTION_LOST_CODES.has(code)) return true;
    if (CONNECTION_LOST_MESSAGE.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}
