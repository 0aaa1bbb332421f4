import { describe, expect, it } from 'vitest';
import { Route } from './route.js';
import { absoluteUrl, buildPath, UrlGenerationError } from './url-generator.js';

const route = (path: string, wheres: Record<string, string> = {}) =>
  new Route(['GET'], path, () => null, { wheres }).name('r');

describe('buildPath', () => {
  it('fills required and optional parameters, dropping an absent optional segment', () => {
    expect(buildPath(route('/a/{x}/b/{y?}'), { x: 1, y: 2 })).toBe('/a/1/b/2');
    expect(buildPath(route('/a/{x}/b/{y?}'), { x: 1 })).toBe('/a/1/b');
    expect(buildPath(route('/{x?}'), {})).toBe('/');
  });

  it('encodes values and turns extra parameters into the query string', () => {
    expect(buildPath(route('/a/{x}'), { x: 'é/?', page: 2, ids: [1, 2], skip: undefined })).toBe(
      '/a/%C3%A9%2F%3F?page=2&ids=1&ids=2',
    );
  });

  it('accepts positional parameters in path order', () => {
    expect(buildPath(route('/a/{x}/{y}'), [1, 'two'])).toBe('/a/1/two');
    expect(buildPath(route('/a/{x}'), 5)).toBe('/a/5');
  });

  it('rejects a missing required parameter, an empty one, and one outside its pattern', () => {
    expect(() => buildPath(route('/a/{x}'), {})).toThrow(UrlGenerationError);
    expect(() => buildPath(route('/a/{x}'), { x: '' })).toThrow('Missing required parameter "x"');
    expect(() => buildPath(route('/a/{x}', { x: '[0-9]+' }), { x: '1a' })).toThrow('does not match');
  });
});

describe('absoluteUrl', () => {
  it('joins without doubling the slash and needs a base', () => {
    expect(absoluteUrl('https://example.com/', '/a')).toBe('https://example.com/a');
    expect(() => absoluteUrl('', '/a')).toThrow('set config.app.url');
  });
});
