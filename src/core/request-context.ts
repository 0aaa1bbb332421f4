import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from '@opentelemetry/api';

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

/** The OpenTelemetry context active in a frame, or what makes it when first asked. */
export type TraceContext = Context | (() => Context);

/**
 * One store for the request and, with tracing on, the OpenTelemetry context (the SDK's context
 * manager reads and writes it here, observability/context-manager.ts): Node 20 runs a hook for
 * every promise and async resource for each store in use, so a second one doubles that cost.
 */
interface Frame {
  readonly request: RequestScope | undefined;
  trace: TraceContext | undefined;
}

const frames = new AsyncLocalStorage<Frame>();

/**
 * Runs `fn` as part of the request `context`: log lines, error bodies and audit rows carry its id.
 * `trace`, given, is the OpenTelemetry context `fn` runs in (its request's span).
 */
export function runInRequest<T>(context: RequestScope, fn: () => T, trace?: TraceContext): T {
  return frames.run({ request: context, trace: trace ?? frames.getStore()?.trace }, fn);
}

/** The request the caller runs for, else `undefined`. */
export function currentRequest(): RequestScope | undefined {
  return frames.getStore()?.request;
}

/** The id of the request the caller runs for, else `undefined` (a job, a command). */
export function currentRequestId(): string | undefined {
  return frames.getStore()?.request?.id;
}

/** The OpenTelemetry context the caller runs in, else `undefined` (none set: the root). */
export function activeTrace(): Context | undefined {
  const frame = frames.getStore();
  if (typeof frame?.trace !== 'function') return frame?.trace;
  frame.trace = frame.trace();
  return frame.trace;
}

/** Runs `fn(...args)` in the OpenTelemetry context `trace`, still part of the caller's request. */
export function runInTrace<A extends unknown[], R>(trace: Context, fn: (...args: A) => R, ...args: A): R {
  return frames.run({ request: frames.getStore()?.request, trace }, fn, ...args);
}

/**
 * Makes `trace` the caller's OpenTelemetry context from here on (`ContextManager.attach`); the
 * returned function puts back the one before.
 */
export function enterTrace(trace: Context): () => void {
  const before = frames.getStore();
  frames.enterWith({ request: before?.request, trace });
  return () => {
    if (before) frames.enterWith(before);
    else frames.enterWith({ request: undefined, trace: undefined });
  };
}
