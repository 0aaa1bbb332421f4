import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { describe, expect, it } from 'vitest';
import { chain, controllerMiddlewareFor } from './controller-middleware.js';

describe('controllerMiddlewareFor', () => {
  const controller = {
    name: 'C',
    middleware: ['all', { use: 'a', only: ['show'] }, { use: ['b', 'c'], except: ['show'] }],
  };

  it('selects entries by only/except, in declaration order', () => {
    expect(controllerMiddlewareFor(controller, 'show')).toEqual(['all', 'a']);
    expect(controllerMiddlewareFor(controller, 'index')).toEqual(['all', 'b', 'c']);
  });

  it('rejects an entry with both only and except', () => {
    expect(() =>
      controllerMiddlewareFor({ name: 'D', middleware: [{ use: 'x', only: ['a'], except: ['b'] }] }, 'a'),
    ).toThrow('D: a middleware entry takes "only" or "except", not both.');
  });
});

describe('chain', () => {
  it('controller middleware: an inner chain that rethrows hands its error to the route chain, whose layers still run', async () => {
    const app = new Hono();
    const controllerLayers = chain(
      [
        async () => {
          throw new Error('denied');
        },
      ],
      (c) => c.text('never'),
      (err) => {
        throw err;
      },
    );
    const outer: MiddlewareHandler = async (c, next) => {
      await next();
      c.header('x-outer', 'ran');
    };
    app.get(
      '/',
      chain([outer], controllerLayers, (err, c) => c.text(`rendered ${err.message}`, 418)),
    );
    const res = await app.request('/');
    expect(res.status).toBe(418);
    expect(await res.text()).toBe('rendered denied');
    expect(res.headers.get('x-outer')).toBe('ran');
  });

  const onError = (err: Error, c: Context) => c.json({ error: err.message }, 500);
  const mount = (handlers: MiddlewareHandler[], endpoint: (c: Context) => Response | Promise<Response>) => {
    const app = new Hono();
    app.get('/', chain(handlers, endpoint, onError));
    return app;
  };

  it('answers synchronously when every layer does', async () => {
    const order: string[] = [];
    const layer =
      (name: string): MiddlewareHandler =>
      (_c, next) => {
        order.push(name);
        return next();
      };
    const run = chain([layer('a'), layer('b')], (c) => c.text('ok'), onError);
    const app = new Hono();
    app.get('/', (c) => {
      const res = run(c);
      expect(res).toBeInstanceOf(Response);
      return res;
    });
    const res = await app.request('/');
    expect(await res.text()).toBe('ok');
    expect(order).toEqual(['a', 'b']);
  });

  it('lets an async layer read and change the response after next()', async () => {
    const app = mount(
      [
        async (c, next) => {
          await next();
          c.header('x-after', c.res.status.toString());
        },
        (_c, next) => next(),
      ],
      async (c) => c.text('late', 201),
    );
    const res = await app.request('/');
    expect(res.status).toBe(201);
    expect(res.headers.get('x-after')).toBe('201');
    expect(await res.text()).toBe('late');
  });

  it('turns an error into onError’s response at its layer, so outer layers still run', async () => {
    const app = mount(
      [
        async (c, next) => {
          await next();
          c.header('x-outer', 'seen');
        },
        () => {
          throw new Error('boom');
        },
      ],
      (c) => c.text('unreached'),
    );
    const res = await app.request('/');
    expect(res.status).toBe(500);
    expect(res.headers.get('x-outer')).toBe('seen');
    expect(await res.json()).toEqual({ error: 'boom' });
  });

  it('takes a layer’s own response without running the rest', async () => {
    let reached = false;
    const app = mount([(c) => Promise.resolve(c.text('stop', 403))], (c) => {
      reached = true;
      return c.text('no');
    });
    const res = await app.request('/');
    expect(res.status).toBe(403);
    expect(reached).toBe(false);
  });
});
