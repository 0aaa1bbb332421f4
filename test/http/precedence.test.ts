import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../support/engines.js';
import { PhotoController, type ServedApp, serve } from './support.js';

// Issue item 7; spec rule 5: extra routes must be registered before the resource, else the resource wins.
describe.each(ENGINES)('route precedence (rule 5) (%s)', (engine) => {
  let s: ServedApp;
  beforeAll(async () => {
    s = await serve(engine, (app) => {
      const r = app.router;
      r.get('/photos/popular', () => ({ extra: 'popular' })).name('photos.popular');
      r.resource('photos', PhotoController);
      r.resource('videos', PhotoController);
      r.get('/videos/popular', () => ({ extra: 'popular' })).name('videos.popular');
      r.get('/videos/popular/extra', () => ({ extra: 'deeper' }));
    });
  });
  afterAll(() => s.close());

  it('a route registered before the resource takes precedence over its show route', async () => {
    expect(await s.json('/photos/popular')).toEqual({ extra: 'popular' });
    expect(await s.json('/photos/7')).toEqual({ action: 'show', id: '7' });
  });

  it('a route registered after the resource is shadowed: the resource show route answers', async () => {
    expect(await s.json('/videos/popular')).toEqual({ action: 'show', id: 'popular' });
    // A path no resource route matches still reaches the late route.
    expect(await s.json('/videos/popular/extra')).toEqual({ extra: 'deeper' });
  });

  it('within a resource, create is registered before {item}, so /photos/create is not an id', async () => {
    expect(await s.json('/photos/create')).toEqual({ action: 'create' });
  });
});
