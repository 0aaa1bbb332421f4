import type { Context } from 'hono';
import { currentUser, logout } from '../../auth/context.js';
import { UserDeletionRefused } from '../../auth/user-deletion-guards.js';
import { formFields } from '../../auth/validation.js';
import { formBody } from '../../http/form-body.js';
import { wantsJson } from '../../http/respond.js';
import { AccountController, WRONG_PASSWORD } from '../account/account-controller.js';
import { AccountSecurity } from '../account/account-security.js';
import { AccountExport } from '../export/account-export.js';
import { requestOrigin } from '../request-origin.js';
import { AccountDeletion } from './account-deletion.js';

export const ACCOUNT_DELETED = 'Your account has been deleted. We sent a last mail to confirm it.';

/** `POST /account/delete` (the current password required) and `GET /account/export` ("download my data"). */
export class AccountDeletionController {
  static inject = [AccountDeletion, AccountExport, AccountSecurity, AccountController] as const;

  constructor(
    private readonly deletion: AccountDeletion,
    private readonly exporter: AccountExport,
    private readonly security: AccountSecurity,
    private readonly account: AccountController,
  ) {}

  /**
   * Deletes the account and signs out. A second submit that overtakes the first (a double click)
   * finds the work done and ends the same way: one deletion, one mail.
   */
  async destroy(c: Context): Promise<Response> {
    const user = currentUser(c)!;
    const { current_password } = formFields(await formBody(c), ['current_password']);
    if (!(await this.security.confirms(user, current_password)))
      return this.account.invalid(c, { errors: { delete: { current_password: [WRONG_PASSWORD] } } });
    try {
      await this.deletion.delete(user, requestOrigin(c));
    } catch (error) {
      if (!(error instanceof UserDeletionRefused)) throw error;
      return this.account.invalid(c, { errors: { delete: { account: [error.message] } } });
    }
    logout(c);
    if (wantsJson(c)) return c.json({ message: ACCOUNT_DELETED });
    c.get('session')?.flash('status', ACCOUNT_DELETED);
    return c.redirect('/login', 303);
  }

  async export(c: Context): Promise<Response> {
    const user = currentUser(c)!;
    const data = await this.exporter.export(user);
    return new Response(JSON.stringify(data, null, 2), {
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'content-disposition': `attachment; filename="account-${user.id}-data.json"`,
        'cache-control': 'no-store',
      },
    });
  }
}
