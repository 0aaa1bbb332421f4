import type { Context } from 'hono';
import type { Params } from '../domain/params.js';
import type { SandboxStore } from '../store/store.js';
import { snapshot } from '../store/store.js';

export type SandboxEnv = { Variables: { params: Params } };
export type SandboxContextHono = Context<SandboxEnv>;

/**
 * Replace ids by the objects they name along each `expand[]` path
 * (https://docs.stripe.com/expand), through lists (`data.customer`) and nested objects.
 */
export function expand(store: SandboxStore, value: unknown, paths: string[]): unknown {
  let out = snapshot(value);
  for (const path of paths) out = expandPath(store, out, path.split('.'));
  return out;
}

function expandPath(store: SandboxStore, value: unknown, segments: string[]): unknown {
  if (segments.length === 0 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => expandPath(store, v, segments));
  const [head, ...rest] = segments as [string, ...string[]];
  const obj = value as Record<string, unknown>;
  const resolve = (field: unknown): unknown => {
    if (typeof field !== 'string') return field;
    const found = store.find(field);
    return found === undefined ? field : snapshot(found);
  };
  const field = obj[head];
  const resolved = Array.isArray(field) ? field.map(resolve) : resolve(field);
  return { ...obj, [head]: expandPath(store, resolved, rest) };
}

/** A JSON response of an object, expanded as the request asked. */
export function respond(c: SandboxContextHono, store: SandboxStore, value: unknown): Response {
  return c.json(expand(store, value, c.get('params').expand()) as object);
}

/**
 * A list page, newest first, with `limit` (1–100, default 10), `starting_after` and
 * `ending_before` cursors (https://docs.stripe.com/api/pagination).
 */
export function respondList<T extends { id: string }>(
  c: SandboxContextHono,
  store: SandboxStore,
  items: T[],
  url: string,
): Response {
  const params = c.get('params');
  const limit = Math.min(100, Math.max(1, params.int('limit') ?? 10));
  let ordered = [...items].reverse();
  const after = params.str('starting_after');
  const before = params.str('ending_before');
  if (after) ordered = ordered.slice(ordered.findIndex((i) => i.id === after) + 1);
  let page: T[];
  let hasMore: boolean;
  if (before) {
    const end = ordered.findIndex((i) => i.id === before);
    const upTo = end < 0 ? ordered : ordered.slice(0, end);
    page = upTo.slice(Math.max(0, upTo.length - limit));
    hasMore = upTo.length > limit;
  } else {
    page = ordered.slice(0, limit);
    hasMore = ordered.length > limit;
  }
  const paths = params
    .expand()
    .filter((p) => p.startsWith('data.'))
    .map((p) => p.slice(5));
  return c.json({ object: 'list', data: page.map((i) => expand(store, i, paths)), has_more: hasMore, url });
}
