import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Context } from 'hono';
import { requestOrigin } from '../../accounts/index.js';
import { csrfToken, currentUser, formFields, SessionStore } from '../../auth/index.js';
import type { Clock } from '../../core/clock.js';
import { EventDispatcher } from '../../core/events.js';
import { ClockKey } from '../../core/keys.js';
import { formBody } from '../../http/form-body.js';
import { jsonBody } from '../../http/json-body.js';
import { wantsJson } from '../../http/respond.js';
import { renderPage } from '../../views/render.js';
import { PasskeyRenamed, SignInMethodAdded, SignInMethodRemoved } from '../events.js';
import { LastSignInMethod } from '../sign-in-methods.js';
import { rememberChallenge, takeChallenge } from './challenges.js';
import { NewPasskeyPage } from './passkey-pages.js';
import { Passkeys } from './passkeys.js';

export const NEEDS_JAVASCRIPT = 'Adding a passkey needs JavaScript in this browser.';

/**
 * The account page's passkeys: add one (`fresh-auth`), rename one, remove one (never the last way
 * to sign in).
 */
export class PasskeyAccountController {
  static inject = [Passkeys, SessionStore, ClockKey, EventDispatcher] as const;

  constructor(
    private readonly passkeys: Passkeys,
    private readonly sessions: SessionStore,
    private readonly clock: Clock,
    private readonly events: EventDispatcher,
  ) {}

  create(c: Context): Promise<Response> {
    return this.page(c);
  }

  async challenge(c: Context): Promise<Response> {
    const options = await this.passkeys.registrationOptions(currentUser(c)!);
    rememberChallenge(c, options.challenge, 'register', this.clock.now());
    return c.json(options);
  }

  async store(c: Context): Promise<Response> {
    // A form post (no JavaScript) has no credential to give.
    if (!c.req.header('content-type')?.includes('application/json'))
      return this.page(c, NEEDS_JAVASCRIPT, 422);
    const body = (await jsonBody(c)) as { name?: unknown; credential?: unknown };
    const credential = body.credential as RegistrationResponseJSON | undefined;
    if (typeof credential !== 'object' || credential === null || typeof credential.id !== 'string')
      return c.json({ message: 'The credential field is required.' }, 422);
    const user = currentUser(c)!;
    const challenge = await takeChallenge(c, this.sessions, 'register', this.clock.now());
    if (!challenge)
      return c.json({ message: 'This passkey request expired or was already answered. Try again.' }, 400);
    const result = await this.passkeys.register(
      user,
      credential,
      challenge,
      typeof body.name === 'string' ? body.name : '',
    );
    if ('reason' in result) return c.json({ message: 'This passkey could not be added.' }, 422);
    await this.events.dispatch(
      new SignInMethodAdded(user, 'passkey', result.passkey.name, requestOrigin(c), this.clock.now()),
    );
    c.get('session')?.flash('status', `Passkey “${result.passkey.name}” added.`);
    return c.json({ message: 'Passkey added.', redirect: '/account#passkeys' }, 201);
  }

  async destroy(c: Context): Promise<Response> {
    const user = currentUser(c)!;
    const id = Number(c.req.param('id'));
    let removed: Awaited<ReturnType<Passkeys['remove']>>;
    try {
      removed = Number.isSafeInteger(id) ? await this.passkeys.remove(user.id, id) : undefined;
    } catch (error) {
      if (!(error instanceof LastSignInMethod)) throw error;
      return this.answer(c, error.message, 422);
    }
    if (!removed) return this.answer(c, 'There is no such passkey.', 404);
    await this.events.dispatch(
      new SignInMethodRemoved(user, 'passkey', removed.name, requestOrigin(c), this.clock.now()),
    );
    return this.answer(c, `Passkey “${removed.name}” removed.`, 200);
  }

  /** `POST /account/passkeys/:id/rename` with `name`: no fresh sign-in needed, a name grants nothing. */
  async rename(c: Context): Promise<Response> {
    const user = currentUser(c)!;
    const id = Number(c.req.param('id'));
    const { name = '' } = formFields(await formBody(c), ['name']);
    if (!name.trim()) return this.answer(c, 'The name field is required.', 422);
    const renamed = Number.isSafeInteger(id) ? await this.passkeys.rename(user.id, id, name) : undefined;
    if (!renamed) return this.answer(c, 'There is no such passkey.', 404);
    await this.events.dispatch(
      new PasskeyRenamed(user, renamed.from, renamed.to, requestOrigin(c), this.clock.now()),
    );
    return this.answer(c, `Passkey renamed to “${renamed.to}”.`, 200);
  }

  /** JSON `{ message }`, or back to the account page's passkeys with it flashed. */
  private answer(c: Context, message: string, status: 200 | 404 | 422): Response {
    if (wantsJson(c)) return c.json({ message }, status);
    c.get('session')?.flash(status === 200 ? 'status' : 'error', message);
    return c.redirect('/account#passkeys', 303);
  }

  private page(c: Context, error?: string, status = 200): Promise<Response> {
    return renderPage(
      c,
      { title: 'Add a passkey', status },
      <NewPasskeyPage csrfToken={csrfToken(c)} error={error} />,
    );
  }
}
