import { describe, expect, it } from 'vitest';
import { expandResource, resourceParameter } from './resource.js';

const defaults = { verbs: { create: 'create', edit: 'edit' }, parameters: {} };

describe('expandResource', () => {
  it('uses a string controller as Controller@action', () => {
    const rows = expandResource('photos', 'Admin/PhotoController', { only: ['show'] }, defaults);
    expect(rows).toEqual([
      {
        methods: ['GET'],
        path: '/photos/{photo}',
        action: 'Admin/PhotoController@show',
        name: 'photos.show',
        resource: 'show',
      },
    ]);
  });

  it('nests with singular parent parameters and honours overrides for parents too', () => {
    const rows = expandResource(
      'people.addresses',
      'A',
      { only: ['show'], parameters: { people: 'member' } },
      defaults,
    );
    expect(rows.map((r) => r.path)).toEqual(['/people/{member}/addresses/{address}']);
  });

  it('rejects only with except, and unknown actions', () => {
    expect(() => expandResource('p', 'A', { only: ['show'], except: ['index'] }, defaults)).toThrow(
      'not both',
    );
    expect(() => expandResource('p', 'A', { only: ['shw' as never] }, defaults)).toThrow(
      'unknown action "shw"',
    );
  });
});

describe('resourceParameter', () => {
  it('singularises with a real inflector', () => {
    expect(resourceParameter('categories', {})).toBe('category');
    expect(resourceParameter('people', {})).toBe('person');
    expect(resourceParameter('children', {})).toBe('child');
    expect(resourceParameter('news', {})).toBe('news');
  });
});
