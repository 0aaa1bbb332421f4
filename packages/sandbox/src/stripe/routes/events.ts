import type { Hono } from 'hono';
import type { SandboxContext } from '../domain/context.js';
import { StripeSandboxError } from '../objects/errors.js';
import { respondList, type SandboxEnv } from './respond.js';

/** Events (https://docs.stripe.com/api/events): every event the sandbox emitted, delivered or not. */
export function registerEvents(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  const { store } = ctx;

  app.get('/v1/events', (c) => {
    const type = c.get('params').str('type');
    const all = [...store.events.values()];
    return respondList(c, store, type ? all.filter((e) => e.type === type) : all, '/v1/events');
  });
  app.get('/v1/events/:id', (c) => {
    const event = store.events.get(c.req.param('id'));
    if (!event) throw StripeSandboxError.noSuch('event', c.req.param('id'));
    return c.json(event);
  });
}
