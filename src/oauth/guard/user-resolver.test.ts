import { describe, expect, it } from 'vitest';
import { User } from '../../auth/user.js';
import { Container } from '../../core/container.js';
import { HasApiTokens } from '../personal/has-api-tokens.js';
import { UserResolver } from './user-resolver.js';
import { toVerifiedToken } from './verified-token.js';

class ApiUser extends HasApiTokens(User) {}

/** A users provider with one user; counts its `find` calls. */
function users() {
  let finds = 0;
  return {
    get finds() {
      return finds;
    },
    async find(id: number) {
      finds++;
      return id === 1 ? new ApiUser(new Container(), { id: 1, name: 'Ada' } as never) : undefined;
    },
  };
}

const token = (jti: string, sub: string, scopes: string[]) =>
  toVerifiedToken({ iss: 'i', sub, aud: 'c', client_id: 'c', jti, iat: 0, exp: 9e9, scope: '', scopes });

describe('UserResolver', () => {
  it('goes through users.find once per token while fresh; concurrent first requests share it', async () => {
    const provider = users();
    const resolver = new UserResolver(provider, { userCacheMs: 1_000 });
    const t1 = token('t1', '1', ['a']);
    const [a, b] = await Promise.all([
      resolver.resolve(t1, undefined, 0),
      resolver.resolve(t1, undefined, 0),
    ]);
    expect(a).toBe(b);
    expect(provider.finds).toBe(1);
    await resolver.resolve(t1, undefined, 999);
    expect(provider.finds).toBe(1);
    await resolver.resolve(t1, undefined, 1_000);
    expect(provider.finds).toBe(2);
  });

  it("never shares a model between two tokens of one user: each carries its own token's scopes", async () => {
    const resolver = new UserResolver(users());
    const narrow = (await resolver.resolve(token('t1', '1', ['read']), undefined, 0)) as ApiUser;
    const wide = (await resolver.resolve(token('t2', '1', ['*']), undefined, 0)) as ApiUser;
    expect(narrow).not.toBe(wide);
    expect([narrow.tokenCan('write'), wide.tokenCan('write')]).toEqual([false, true]);
  });

  it('a user the provider does not find is undefined, and is asked again next time', async () => {
    const provider = users();
    const resolver = new UserResolver(provider);
    expect(await resolver.resolve(token('t9', '9', []), undefined, 0)).toBeUndefined();
    expect(await resolver.resolve(token('t9', '9', []), undefined, 1)).toBeUndefined();
    expect(provider.finds).toBe(2);
  });
});
