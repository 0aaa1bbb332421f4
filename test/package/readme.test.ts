import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = resolve(import.meta.dirname, '../..');

describe('README: "Use Tollgate in your app"', () => {
  it('shows the starter server file exactly as examples/starter/server.mjs, which the packing test runs', () => {
    const readme = readFileSync(resolve(repo, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Use Tollgate in your app'));
    const block = /```js\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block).toBe(readFileSync(resolve(repo, 'examples/starter/server.mjs'), 'utf8'));
  });
});
