import type { Application } from '../../kernel/application.js';
import { SignInMethods } from '../sign-in-methods.js';

/** Passkeys: counted among the user's sign-in methods. */
export function registerPasskeys(app: Application): void {
  app.container.make(SignInMethods).add({
    kind: 'passkey',
    count: async (db, userId) => {
      const row = await db
        .selectFrom('signin_passkeys')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  });
}
