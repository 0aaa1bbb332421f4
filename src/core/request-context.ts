import { AsyncLocalStorage } from 'node:async_hooks';

/** What every piece of code running for one request may ask about it. */
export interface RequestScope {
  /** The request's id: its `X-Request-Id`, else its `traceparent`'s trace id, else a fresh one. */
  readonly id: string;
  /** The matched route's name (else `METHOD /pattern`), once routing found one. */
  route?: string;
  /** Who the request acts for when it is not a signed-in user (`webhook` for a provider's webhook). */
  actor?: string;
  /** The client's address (behind trusted proxies, the one they name) and its browser, decided when first asked. */
  readonly origin?: () => { ip?: string; userAgent?: string };
}

const scope = new AsyncLocalStorage<RequestScope>();

/** Runs `fn` as part of the request `context`: log lines, error bodies and audit rows carry its id. */
export function runInRequest<T>(context: RequestScope, fn: () => T): T {
  return scope.run(context, fn);
}

/** The request the caller runs for, else `undefined`. */
export function currentRequest(): RequestScope | undefined {
  return scope.getStore();
}

/** The id of the request the caller runs for, else `undefined` (a job, a command). */
export function currentRequestId(): string | undefined {
  return scope.getStore()?.id;
}
