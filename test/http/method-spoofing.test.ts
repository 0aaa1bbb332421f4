import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../support/engines.js';
import { PhotoController, type ServedApp, serve } from './support.js';

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

// Issue item 6; spec rule 4: HTML forms carry PUT, PATCH and DELETE in a hidden `_method` field.
describe.each(ENGINES)('method spoofing (rule 4) (%s)', (engine) => {
  let s: ServedApp;
  beforeAll(async () => {
    s = await serve(engine, (app) => {
      app.router.resource('photos', PhotoController);
      app.router.put('/profile', async (c) => ({ method: c.req.method, body: await c.req.parseBody() }));
      app.router.post('/profile', async (c) => ({ method: c.req.method, body: await c.req.parseBody() }));
      app.router.post('/json', async (c) => ({ method: c.req.method, body: await c.req.json() }));
    });
  });
  afterAll(() => s.close());

  it('a form POST with _method=PUT, PATCH or DELETE reaches that route', async () => {
    expect(await s.json('/photos/3', form({ _method: 'PUT' }))).toEqual({
      action: 'update',
      id: '3',
      method: 'PUT',
    });
    expect(await s.json('/photos/3', form({ _method: 'patch' }))).toEqual({
      action: 'update',
      id: '3',
      method: 'PATCH',
    });
    expect(await s.json('/photos/3', form({ _method: 'DELETE' }))).toEqual({ action: 'destroy', id: '3' });
  });

  it('keeps the other fields and drops _method', async () => {
    expect(await s.json('/profile', form({ _method: 'PUT', name: 'Ada', city: 'London' }))).toEqual({
      method: 'PUT',
      body: { name: 'Ada', city: 'London' },
    });
  });

  it('works for multipart forms too', async () => {
    const body = new FormData();
    body.set('_method', 'PUT');
    body.set('name', 'Grace');
    expect(await s.json('/profile', { method: 'POST', body })).toEqual({
      method: 'PUT',
      body: { name: 'Grace' },
    });
  });

  it('leaves a form without _method, or with another verb, a POST with its body intact', async () => {
    expect(await s.json('/profile', form({ name: 'Ada' }))).toEqual({
      method: 'POST',
      body: { name: 'Ada' },
    });
    expect(await s.json('/profile', form({ _method: 'GET', name: 'Ada' }))).toEqual({
      method: 'POST',
      body: { _method: 'GET', name: 'Ada' },
    });
  });

  it('does not touch JSON bodies or GET requests', async () => {
    expect(
      await s.json('/json', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ _method: 'PUT' }),
      }),
    ).toEqual({ method: 'POST', body: { _method: 'PUT' } });
    expect(await s.json('/photos/3?_method=DELETE')).toEqual({ action: 'show', id: '3' });
  });
});
