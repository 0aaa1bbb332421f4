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

describe('docs/ logs in as the user the README creates', () => {
  it("every documented password for ada@example.com is the one README's `user:create` sets", () => {
    const readme = readFileSync(resolve(repo, 'README.md'), 'utf8');
    const created = /user:create --email ada@example\.com --password '([^']+)'/.exec(readme)?.[1];
    expect(created).toBeTruthy();
    const oauthDoc = readFileSync(resolve(repo, 'docs/oauth.md'), 'utf8');
    const used = [...oauthDoc.matchAll(/password[=']+([^'\\\n]+)'/g)].map((match) => match[1]);
    expect(used.length).toBeGreaterThanOrEqual(3);
    expect(new Set(used)).toEqual(new Set([created]));
  });
});
