import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Route } from '../../src/http/index.js';
import { ENGINES } from '../support/engines.js';
import { PhotoController, type ServedApp, serve } from './support.js';

class CommentController {
  index(photo: string) {
    return { action: 'index', photo };
  }
  show(photo: string, comment: string) {
    return { action: 'show', photo, comment };
  }
  update(photo: string, comment: string) {
    return { action: 'update', photo, comment };
  }
}

class Echo {
  index() {
    return { action: 'index' };
  }
  show(item: string) {
    return { action: 'show', item };
  }
}

const table = (routes: readonly Route[]) =>
  routes.map((r) => [r.methods.filter((m) => m !== 'HEAD').join('|'), r.path, r.routeName]);

// Issue item 5; spec "Resource route set" table and rules 1–3.
describe.each(ENGINES)('resources (%s)', (engine) => {
  let s: ServedApp;
  beforeAll(async () => {
    s = await serve(engine, (app) => {
      const r = app.router;
      r.resource('photos', PhotoController);
      r.resource('categories', Echo, { only: ['show'] });
      r.resource('people', Echo, { only: ['show'] });
      r.resource('user-profiles', Echo, { only: ['show'] });
      r.resource('images', Echo, { only: ['index', 'show'], parameters: { images: 'picture' } });
      r.resource('albums', Echo, { except: ['create', 'store', 'edit', 'update', 'destroy'] });
      r.resource('videos', Echo, { only: ['index', 'show'], names: { index: 'clips', show: 'clips.one' } });
      r.resource('songs', Echo, { only: ['index'], names: 'music' });
      r.apiResource('posts', PhotoController);
      r.resource('photos.comments', CommentController, { only: ['index', 'show', 'update'] });
      r.resource('strings', 'PhotoController', { only: ['index', 'show'] });
      r.group({ prefix: '/admin', as: 'admin.' }, (g) => g.resource('users', Echo, { only: ['show'] }));
      r.resourceVerbs({ create: 'crear', edit: 'editar' });
      r.resource('fotos', PhotoController, { only: ['create', 'edit'] });
    });
  });
  afterAll(() => s.close());

  const routesOf = (prefix: string) =>
    s.app.router.routes.filter((r) => r.routeName?.startsWith(`${prefix}.`));

  it('generates exactly the seven routes of the table, PUT and PATCH both for update', () => {
    expect(table(routesOf('photos').filter((r) => !r.routeName!.startsWith('photos.comments')))).toEqual([
      ['GET', '/photos', 'photos.index'],
      ['GET', '/photos/create', 'photos.create'],
      ['POST', '/photos', 'photos.store'],
      ['GET', '/photos/{photo}', 'photos.show'],
      ['GET', '/photos/{photo}/edit', 'photos.edit'],
      ['PUT|PATCH', '/photos/{photo}', 'photos.update'],
      ['DELETE', '/photos/{photo}', 'photos.destroy'],
    ]);
  });

  it('each generated route reaches its action over HTTP', async () => {
    expect(await s.json('/photos')).toEqual({ action: 'index' });
    expect(await s.json('/photos/create')).toEqual({ action: 'create' });
    expect(await s.json('/photos', { method: 'POST' })).toEqual({ action: 'store' });
    expect(await s.json('/photos/5')).toEqual({ action: 'show', id: '5' });
    expect(await s.json('/photos/5/edit')).toEqual({ action: 'edit', id: '5' });
    expect(await s.json('/photos/5', { method: 'PUT' })).toEqual({
      action: 'update',
      id: '5',
      method: 'PUT',
    });
    expect(await s.json('/photos/5', { method: 'PATCH' })).toEqual({
      action: 'update',
      id: '5',
      method: 'PATCH',
    });
    expect(await s.json('/photos/5', { method: 'DELETE' })).toEqual({ action: 'destroy', id: '5' });
  });

  it('rule 1: the parameter is the singular of the resource name, overridable per resource', async () => {
    expect(s.app.router.byName('categories.show')!.path).toBe('/categories/{category}');
    expect(s.app.router.byName('people.show')!.path).toBe('/people/{person}');
    expect(s.app.router.byName('user-profiles.show')!.path).toBe('/user-profiles/{user_profile}');
    expect(s.app.router.byName('images.show')!.path).toBe('/images/{picture}');
    expect(s.app.router.url('people.show', { person: 'ada' })).toBe('/people/ada');
    expect(await s.json('/people/ada')).toEqual({ action: 'show', item: 'ada' });
  });

  it('rule 2: only and except select a subset; names overrides route names', async () => {
    expect(table(routesOf('images'))).toEqual([
      ['GET', '/images', 'images.index'],
      ['GET', '/images/{picture}', 'images.show'],
    ]);
    expect(table(routesOf('albums'))).toEqual([
      ['GET', '/albums', 'albums.index'],
      ['GET', '/albums/{album}', 'albums.show'],
    ]);
    expect((await s.fetch('/albums', { method: 'POST' })).status).toBe(404);
    expect(s.app.router.url('clips')).toBe('/videos');
    expect(s.app.router.url('clips.one', { video: 3 })).toBe('/videos/3');
    expect(s.app.router.has('videos.index')).toBe(false);
    expect(s.app.router.url('music.index')).toBe('/songs');
  });

  it('rule 3: the create and edit path verbs can be localised globally', async () => {
    expect(table(routesOf('fotos'))).toEqual([
      ['GET', '/fotos/crear', 'fotos.create'],
      ['GET', '/fotos/{foto}/editar', 'fotos.edit'],
    ]);
    expect(await s.json('/fotos/crear')).toEqual({ action: 'create' });
    expect(await s.json('/fotos/1/editar')).toEqual({ action: 'edit', id: '1' });
  });

  it('apiResource has no create or edit routes', async () => {
    expect(table(routesOf('posts'))).toEqual([
      ['GET', '/posts', 'posts.index'],
      ['POST', '/posts', 'posts.store'],
      ['GET', '/posts/{post}', 'posts.show'],
      ['PUT|PATCH', '/posts/{post}', 'posts.update'],
      ['DELETE', '/posts/{post}', 'posts.destroy'],
    ]);
    // Without a create route, /posts/create is just a post id.
    expect(await s.json('/posts/create')).toEqual({ action: 'show', id: 'create' });
  });

  it('nests resources: photos.comments → /photos/{photo}/comments/{comment}', async () => {
    expect(table(routesOf('photos.comments'))).toEqual([
      ['GET', '/photos/{photo}/comments', 'photos.comments.index'],
      ['GET', '/photos/{photo}/comments/{comment}', 'photos.comments.show'],
      ['PUT|PATCH', '/photos/{photo}/comments/{comment}', 'photos.comments.update'],
    ]);
    expect(await s.json('/photos/2/comments')).toEqual({ action: 'index', photo: '2' });
    expect(await s.json('/photos/2/comments/3')).toEqual({ action: 'show', photo: '2', comment: '3' });
    expect(s.app.router.url('photos.comments.show', { photo: 2, comment: 3 })).toBe('/photos/2/comments/3');
  });

  it('takes a controller string and honours the group prefix and name prefix', async () => {
    expect(s.app.router.byName('strings.show')!.action).toBe('PhotoController@show');
    expect(await s.json('/strings/4')).toEqual({ controller: 'PhotoController', action: 'show', photo: '4' });
    expect(s.app.router.url('admin.users.show', { user: 1 })).toBe('/admin/users/1');
    expect(await s.json('/admin/users/1')).toEqual({ action: 'show', item: '1' });
  });
});
