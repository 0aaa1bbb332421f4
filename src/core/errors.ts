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
   * `{ message }` (generic for a 5xx), with its status and headers.
   */
  getResponse(): Response {
    const body = this.body ?? { message: this.expose ? this.message : 'Server Error' };
    return new Response(JSON.stringify(body), {
      status: this.status,
      headers: { 'Content-Type': 'application/json', ...this.headers },
    });
  }
}

/** 422 with Laravel's shape: `{ message, errors: { field: [messages] } }`. */
export class ValidationError extends HttpError {
  readonly errors: Record<string, string[]>;

  constructor(errors: Record<string, string[]>, message = 'The given data was invalid.') {
    super(422, message, { body: { message, errors } });
    this.name = 'ValidationError';
    this.errors = errors;
  }
}

/** A mistake in how the application is put together: a missing binding, an unknown route name. */
export class ConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigurationError';
  }
}
