import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Notifications } from '../../src/accounts/index.js';
import { accountsProvider } from '../../src/accounts/provider.js';
import { authProvider } from '../../src/auth/provider.js';
import { Users } from '../../src/auth/users.js';
import { mailProvider } from '../../src/mail/provider.js';
import { signinProvider } from '../../src/signin/provider.js';
import { LastSignInMethod, SignInMethods } from '../../src/signin/sign-in-methods.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { ENGINES } from '../support/engines.js';

describe.each(ENGINES)('a user keeps at least one way to sign in (%s)', (engine) => {
  let t: TestApp;
  let methods: SignInMethods;
  let serial = 0;

  beforeAll(async () => {
    t = await createTestApp({
      engine,
      providers: [authProvider(), mailProvider(), accountsProvider(), signinProvider()],
    });
    methods = t.app.container.make(SignInMethods);
  });
  afterAll(() => t?.close());

  async function userWith(passkeys: number, password: boolean) {
    const user = await t.app.container
      .make(Users)
      .create({ name: 'p', email: `p${++serial}@example.com`, password: 'correct horse battery' });
    if (!password)
      await t.app.db.updateTable('users').set({ password: '' }).where('id', '=', user.id).execute();
    for (let i = 0; i < passkeys; i++) {
      await t.app.db
        .insertInto('signin_passkeys' as never)
        .values({
          user_id: user.id,
          credential_id: `cred-${serial}-${i}`,
          public_key: 'pk',
          device_type: 'multiDevice',
          name: `Key ${i}`,
          created_at: t.clock.now().toISOString(),
        } as never)
        .execute();
    }
    return user.id;
  }

  const removePasskey = (userId: number, credentialId: string) =>
    methods.remove(userId, async (trx) => {
      const result = await trx
        .deleteFrom('signin_passkeys')
        .where('user_id', '=', userId)
        .where('credential_id', '=', credentialId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    });

  it('registers the notices of added and removed sign-in methods', () => {
    const notifications = t.app.container.make(Notifications);
    expect(notifications.enabled('sign-in-method-added')).toBe(true);
    expect(notifications.enabled('sign-in-method-removed')).toBe(true);
  });

  it('counts the password and each passkey', async () => {
    expect(await methods.count(await userWith(2, true))).toBe(3);
    expect(await methods.count(await userWith(1, false))).toBe(1);
  });

  it('a user with a password may remove their only passkey', async () => {
    const id = await userWith(1, true);
    expect(await removePasskey(id, `cred-${serial}-0`)).toBe(true);
    expect(await methods.count(id)).toBe(1);
  });

  it('a user without a password may not remove their only passkey, and it stays', async () => {
    const id = await userWith(1, false);
    await expect(removePasskey(id, `cred-${serial}-0`)).rejects.toBeInstanceOf(LastSignInMethod);
    expect(await methods.count(id)).toBe(1);
  });

  it('removing nothing is not refused', async () => {
    const id = await userWith(1, false);
    expect(await removePasskey(id, 'no-such-credential')).toBe(false);
  });

  it('two removals at once of the last two passkeys: exactly one is refused', async () => {
    const id = await userWith(2, false);
    const answers = await Promise.allSettled([
      removePasskey(id, `cred-${serial}-0`),
      removePasskey(id, `cred-${serial}-1`),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(answers.find((a) => a.status === 'rejected')?.reason).toBeInstanceOf(LastSignInMethod);
    expect(await methods.count(id)).toBe(1);
  });
});
