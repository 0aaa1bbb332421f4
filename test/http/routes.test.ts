import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { route, UrlGenerationError } from '../../src/http/index.js';
import { ENGINES } from '../support/engines.js';
import { type ServedApp, serve } from './support.js';

// Issue item 1: verbs, names, groups, parameters, patterns, URL generation.
describe.each(ENGINES)('routes (%s)', (engine) => {
  let s: ServedApp;
  beforeAll(async () => {
    s = await serve(engine, (app) => {
      const r = app.router;
      r.middleware.alias('tag', (value = 'x') => async (c, next) => {
        await next();
        c.res.headers.append('x-tags', value);
      });
      r.get('/verbs', (c) => c.text(`GET ${c.req.method}`));
      r.post('/verbs', () => 'POST');
      r.put('/verbs', () => 'PUT');
      r.patch('/verbs', () => 'PATCH');
      r.delete('/verbs', () => 'DELETE');
      r.options('/verbs', (c) => c.body(null, 204, { allow: 'GET, POST' }));
      r.match(['PUT', 'PATCH'], '/either', (c) => c.req.method);
      r.any('/anything', (c) => ({ method: c.req.method }));
      r.get('/photos/{photo}', (c) => ({ photo: c.req.param('photo') })).name('photos.show');
      r.get('/posts/{post}/comments/{comment?}', (c) => c.req.param()).name('posts.comments');
      r.get('/users/{id}', (c) => ({ id: c.req.param('id') }))
        .whereNumber('id')
        .name('users.show');
      r.get('/users/{slug}', (c) => ({ slug: c.req.param('slug') })).name('users.by-slug');
      r.get('/tags/{tag}', (c) => ({ tag: c.req.param('tag') })).whereIn('tag', ['red', 'green']);
      r.get('/links', (c) => ({
        relative: route(c, 'photos.show', { photo: 7 }),
        absolute: route(c, 'photos.show', { photo: 7 }, { absolute: true }),
      }));
      r.group({ prefix: '/admin', as: 'admin.', middleware: 'tag:group', where: { n: '[0-9]+' } }, (g) => {
        g.get('/items/{n}', (c) => ({ n: c.req.param('n') }))
          .name('items.show')
          .middleware('tag:route');
        g.group({ prefix: 'deep', as: 'deep.' }, (d) => {
          d.get('/', () => 'deep').name('home');
        });
      });
    });
  });
  afterAll(() => s.close());

  it('answers every verb through its own route, and HEAD through GET', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      const res = await s.fetch('/verbs', { method });
      expect(await res.text()).toBe(method === 'GET' ? 'GET GET' : method);
    }
    const options = await s.fetch('/verbs', { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, POST');
    const head = await s.fetch('/verbs', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('match() answers the listed verbs only; any() answers all', async () => {
    expect(await (await s.fetch('/either', { method: 'PATCH' })).text()).toBe('PATCH');
    expect((await s.fetch('/either', { method: 'POST' })).status).toBe(404);
    for (const method of ['GET', 'POST', 'DELETE', 'OPTIONS'])
      expect(await s.json('/anything', { method })).toEqual({ method });
  });

  it('passes path parameters, optional ones included', async () => {
    expect(await s.json('/photos/42')).toEqual({ photo: '42' });
    expect(await s.json('/posts/3/comments/9')).toEqual({ post: '3', comment: '9' });
    expect(await s.json('/posts/3/comments')).toEqual({ post: '3' });
  });

  it('applies per-parameter patterns: a mismatch falls through to the next route or 404', async () => {
    expect(await s.json('/users/12')).toEqual({ id: '12' });
    expect(await s.json('/users/ada')).toEqual({ slug: 'ada' });
    expect(await s.json('/tags/red')).toEqual({ tag: 'red' });
    expect((await s.fetch('/tags/blue')).status).toBe(404);
  });

  it('groups prefix paths, names, middleware and patterns, nested', async () => {
    const res = await s.fetch('/admin/items/5');
    expect(await res.json()).toEqual({ n: '5' });
    expect(res.headers.get('x-tags')).toBe('route, group');
    expect((await s.fetch('/admin/items/five')).status).toBe(404);
    expect(await (await s.fetch('/admin/deep')).text()).toBe('deep');
    expect(s.app.router.url('admin.items.show', { n: 5 })).toBe('/admin/items/5');
    expect(s.app.router.url('admin.deep.home')).toBe('/admin/deep');
  });

  it('generates URLs by name: named or positional parameters, extras as query string', () => {
    const r = s.app.router;
    expect(r.url('photos.show', { photo: 7 })).toBe('/photos/7');
    expect(r.url('photos.show', 7)).toBe('/photos/7');
    expect(r.url('posts.comments', [3, 9])).toBe('/posts/3/comments/9');
    expect(r.url('posts.comments', { post: 3 })).toBe('/posts/3/comments');
    expect(r.url('photos.show', { photo: 'a b/c', sort: 'new', tag: ['x', 'y'] })).toBe(
      '/photos/a%20b%2Fc?sort=new&tag=x&tag=y',
    );
    expect(r.url('photos.show', { photo: 7 }, { absolute: true })).toBe('http://localhost/photos/7');
  });

  it('offers route() from the request context', async () => {
    expect(await s.json('/links')).toEqual({ relative: '/photos/7', absolute: 'http://localhost/photos/7' });
  });

  it('fails clearly for an unknown name, a missing parameter, or a parameter that breaks its pattern', () => {
    const r = s.app.router;
    expect(() => r.url('photos.shw', { photo: 1 })).toThrow(UrlGenerationError);
    expect(() => r.url('photos.shw', { photo: 1 })).toThrow('Route "photos.shw" is not defined.');
    expect(() => r.url('photos.show')).toThrow(
      'Missing required parameter "photo" for route "photos.show" (GET /photos/{photo}).',
    );
    expect(() => r.url('users.show', { id: 'abc' })).toThrow('does not match /[0-9]+/');
    expect(() => r.url('photos.show', [1, 2])).toThrow('Too many parameters');
  });

  it('answers 404 for an unknown path', async () => {
    expect((await s.fetch('/nowhere')).status).toBe(404);
  });
});
