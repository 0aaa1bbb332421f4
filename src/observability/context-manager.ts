import { type Context, ROOT_CONTEXT } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { activeTrace, enterTrace, runInTrace } from '../core/request-context.js';

/**
 * The SDK's context manager over Tollgate's request store (core/request-context.ts) instead of an
 * `AsyncLocalStorage` of its own: one store for the request and its span, so a traced request runs
 * one async context, not two. `context.with` keeps the caller's request; binding functions and
 * event emitters is the SDK's own (it calls `with`).
 */
export class RequestContextManager extends AsyncLocalStorageContextManager {
  override active(): Context {
    return activeTrace() ?? ROOT_CONTEXT;
  }

  override with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    context: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return runInTrace(context, thisArg == null ? fn : fn.bind(thisArg), ...args);
  }

  override attach(context: Context): { dispose(): void } {
    let restore: (() => void) | undefined = enterTrace(context);
    return {
      dispose() {
        restore?.();
        restore = undefined;
      },
    };
  }

  /** The store is the requests' too: disabling tracing leaves it alone. */
  override disable(): this {
    return this;
  }
}
