import type { Context } from 'hono';
import type { SandboxContext } from '../domain/context.js';
import { camelize, type Params } from '../domain/params.js';

export type OperationHandler = (params: Params, c: Context) => Promise<Response> | Response;

/**
 * Wraps a gateway route: parses the SDK's JSON body (snake_case keys, camelCased here), records the
 * operation in `requests` with its parameters exactly as sent, then runs the handler.
 */
export function operation(ctx: SandboxContext, name: string, handler: OperationHandler) {
  return async function recordedOperation(c: Context): Promise<Response> {
    const raw = c.req.method === 'GET' || c.req.method === 'DELETE' ? '' : await c.req.text();
    let params: Params = {};
    if (raw.trim() !== '') {
      try {
        params = camelize(JSON.parse(raw)) as Params;
      } catch {
        return new Response('Invalid JSON', { status: 400 });
      }
    }
    const url = new URL(c.req.url);
    for (const [key, value] of url.searchParams) params[key] = value;
    ctx.store.requests.push({
      at: ctx.store.now(),
      method: c.req.method,
      path: url.pathname,
      operation: name,
      params,
    });
    return handler(params, c);
  };
}
