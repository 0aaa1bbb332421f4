import { AsyncLocalStorage } from 'node:async_hooks';

/** What every piece of code running for one request may ask about it. */
export interface RequestContext {
  /** The request's id: its `X-Request-Id`, else its `traceparent`'s trace id, else a fresh one. */
  readonly id: string;
}

const scope = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` as part of the request `context`: log lines, error bodies and audit rows carry its id. */
export function runInRequest<T>(context: RequestContext, fn: () => T): T {
  return scope.run(context, fn);
}

/** The id of the request the caller runs for, else `undefined` (a job, a command). */
export function currentRequestId(): string | undefined {
  return scope.getStore()?.id;
}
