import type { Context } from 'hono';
import { requestOrigin } from '../../accounts/index.js';
import { currentUser, requireSession } from '../../auth/index.js';
import { HttpError } from '../../core/errors.js';
import { wantsJson } from '../../http/respond.js';
import { UpstreamProviders } from './upstream-providers.js';
import { UpstreamSignIn } from './upstream-sign-in.js';

export const LAST_METHOD =
  'This is your only way to sign in. Link another account, or set a password with "Forgot your password?", first.';

/** `POST /account/sign-in/{provider}/unlink`: removes a link, unless it is the last way in. */
export class LinkedAccountsController {
  static inject = [UpstreamProviders, UpstreamSignIn] as const;

  constructor(
    private readonly providers: UpstreamProviders,
    private readonly signIn: UpstreamSignIn,
  ) {}

  async unlink(provider: string, c: Context): Promise<Response> {
    const label = this.providers.get(provider)?.provider.label;
    if (!label) throw new HttpError(404, 'Not Found');
    const result = await this.signIn.unlink(currentUser(c)!, provider, requestOrigin(c));
    if (result === 'missing') throw new HttpError(404, `${label} is not linked to your account.`);
    const refused = result === 'last';
    const message = refused ? LAST_METHOD : `${label} is unlinked.`;
    if (wantsJson(c)) return c.json({ message }, refused ? 422 : 200);
    requireSession(c).flash(refused ? 'error' : 'status', message);
    return c.redirect('/account#linked-accounts', 303);
  }
}
