import { describe, expect, it } from 'vitest';
import { spoofMethod } from './method-spoofing.js';

const post = (body: BodyInit, type?: string) =>
  new Request('http://x/a', { method: 'POST', body, headers: type ? { 'content-type': type } : {} });

describe('spoofMethod', () => {
  it('turns a URL-encoded form POST with _method into that verb, without the field', async () => {
    const r = await spoofMethod(post('_method=delete&a=1', 'application/x-www-form-urlencoded'));
    expect(r.method).toBe('DELETE');
    expect(await r.text()).toBe('a=1');
  });

  it('returns the same request when there is nothing to spoof', async () => {
    const plain = post('a=1', 'application/x-www-form-urlencoded');
    expect(await spoofMethod(plain)).toBe(plain);
    expect(await plain.text()).toBe('a=1');
    const other = post('_method=GET', 'application/x-www-form-urlencoded');
    expect(await spoofMethod(other)).toBe(other);
    const json = post('{"_method":"PUT"}', 'application/json');
    expect(await spoofMethod(json)).toBe(json);
  });

  it('lets a URL-encoded body it had to read be read again, in any form', async () => {
    const plain = post('a=1&b=x+y', 'application/x-www-form-urlencoded');
    expect(await spoofMethod(plain)).toBe(plain);
    expect(await plain.text()).toBe('a=1&b=x+y');
    expect(await plain.text()).toBe('a=1&b=x+y');
    expect((await plain.formData()).get('b')).toBe('x y');
    expect(new TextDecoder().decode(await plain.arrayBuffer())).toBe('a=1&b=x+y');
    expect(plain.bodyUsed).toBe(false);
    expect(await new Response(plain.body).text()).toBe('a=1&b=x+y');
    expect(await plain.clone().text()).toBe('a=1&b=x+y');
    const encoded = post('%5Fmethod=put&a=1', 'application/x-www-form-urlencoded');
    expect((await spoofMethod(encoded)).method).toBe('PUT');
  });

  it('re-encodes a multipart form with a fresh boundary', async () => {
    const form = new FormData();
    form.set('_method', 'PATCH');
    form.set('a', '1');
    const r = await spoofMethod(new Request('http://x/a', { method: 'POST', body: form }));
    expect(r.method).toBe('PATCH');
    const parsed = await r.formData();
    expect([...parsed.keys()]).toEqual(['a']);
  });
});
