import type { Context } from 'hono';
import QRCode from 'qrcode';
import { csrfToken, currentUser } from '../../auth/context.js';
import { formFields } from '../../auth/validation.js';
import { formBody } from '../../http/form-body.js';
import { wantsJson } from '../../http/respond.js';
import { renderPage } from '../../views/render.js';
import { requestOrigin } from '../request-origin.js';
import { TwoFactor } from './two-factor.js';
import { RecoveryCodesPage, SetupPage } from './two-factor-pages.js';

export const STAYS_ON = 'Your account needs two-factor authentication: it cannot be turned off.';
export const WRONG_SETUP_CODE = 'This code is not the one the app shows. Check the app and try again.';

/** Pages that show a secret (the seed, recovery codes) are never kept by a cache. */
function noStore(res: Response): Response {
  res.headers.set('cache-control', 'no-store');
  return res;
}

/** The account page's authenticator app: set up, confirm, new recovery codes, turn off. */
export class TwoFactorController {
  static inject = [TwoFactor] as const;

  constructor(private readonly twoFactor: TwoFactor) {}

  /** `POST /account/two-factor`: starts enrolment (a new seed, waiting for its first code). */
  async begin(c: Context): Promise<Response> {
    if (!(await this.twoFactor.begin(currentUser(c)!)))
      return this.done(c, 'Two-factor authentication is already on.');
    if (wantsJson(c)) return this.setup(c);
    return c.redirect('/account/two-factor/setup', 303);
  }

  /** `GET /account/two-factor/setup`: the QR code and the confirm form. */
  async setup(c: Context, errors?: string[]): Promise<Response> {
    const user = currentUser(c)!;
    const state = await this.twoFactor.state(user.id);
    if (!state.pending) return c.redirect('/account', 303);
    const started = (await this.twoFactor.begin(user))!;
    if (wantsJson(c)) {
      const body = { message: errors?.[0] ?? 'Scan the URI, then confirm with a code.', uri: started.uri };
      return noStore(c.json(errors ? { ...body, errors: { code: errors } } : body, errors ? 422 : 200));
    }
    const qrDataUrl = `data:image/svg+xml;base64,${Buffer.from(await QRCode.toString(started.uri, { type: 'svg', margin: 1 })).toString('base64')}`;
    return noStore(
      await renderPage(
        c,
        { title: 'Set up your authenticator app', status: errors ? 422 : 200 },
        <SetupPage qrDataUrl={qrDataUrl} seed={started.seed} csrfToken={csrfToken(c)} errors={errors} />,
      ),
    );
  }

  /** `POST /account/two-factor/confirm`: a code from the app turns it on; the recovery codes, once. */
  async confirm(c: Context): Promise<Response> {
    const { code } = formFields(await formBody(c), ['code']);
    const codes = await this.twoFactor.confirm(currentUser(c)!, code, requestOrigin(c));
    if (!codes) return this.setup(c, [WRONG_SETUP_CODE]);
    return this.showCodes(c, codes, true);
  }

  /** `POST /account/two-factor/recovery-codes` (fresh sign-in): ten new codes, the old ones void. */
  async regenerate(c: Context): Promise<Response> {
    const codes = await this.twoFactor.regenerate(currentUser(c)!, requestOrigin(c));
    if (!codes) return this.done(c, 'Two-factor authentication is off: there are no recovery codes.', 409);
    return this.showCodes(c, codes, false);
  }

  /** `POST /account/two-factor/disable` (fresh sign-in): turns the app off, the codes with it. */
  async disable(c: Context): Promise<Response> {
    const user = currentUser(c)!;
    if (await this.twoFactor.requiredFor(user)) return this.done(c, STAYS_ON, 409);
    const removed = await this.twoFactor.disable(user, requestOrigin(c));
    return this.done(
      c,
      removed ? 'Two-factor authentication is off.' : 'Two-factor authentication was not on.',
    );
  }

  private async showCodes(c: Context, codes: string[], enabledNow: boolean): Promise<Response> {
    if (wantsJson(c))
      return noStore(c.json({ message: 'Keep these recovery codes safe.', recovery_codes: codes }));
    return noStore(
      await renderPage(
        c,
        { title: 'Recovery codes' },
        <RecoveryCodesPage codes={codes} enabledNow={enabledNow} />,
      ),
    );
  }

  private done(c: Context, message: string, status: 200 | 409 = 200): Response {
    if (wantsJson(c)) return c.json({ message }, status);
    c.get('session')?.flash('status', message);
    return c.redirect('/account', 303);
  }
}
