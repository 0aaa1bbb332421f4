import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { controllerMiddlewareFor, runMiddleware } from './controller-middleware.js';

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

describe('runMiddleware', () => {
  it('runs handlers as an onion and lets one answer early', async () => {
    const app = new Hono();
    const order: string[] = [];
    app.get('/', (c) =>
      runMiddleware(
        c,
        [
          async (_c, next) => {
            order.push('a-in');
            await next();
            order.push('a-out');
          },
          async (c2, next) => {
            order.push('b-in');
            await next();
            c2.res.headers.set('x-b', '1');
          },
        ],
        async () => {
          order.push('action');
          return c.text('ok');
        },
      ),
    );
    app.get('/early', (c) =>
      runMiddleware(c, [async (c2) => c2.text('stop', 401)], async () => c.text('never')),
    );
    const res = await app.request('/');
    expect(await res.text()).toBe('ok');
    expect(res.headers.get('x-b')).toBe('1');
    expect(order).toEqual(['a-in', 'b-in', 'action', 'a-out']);
    const early = await app.request('/early');
    expect(early.status).toBe(401);
  });
});
