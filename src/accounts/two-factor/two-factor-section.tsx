import type { FC } from 'hono/jsx';
import { CsrfField } from '../../views/components.js';
import type { TwoFactorState } from './two-factor.js';

/** The account page's "Two-factor authentication" card: set up, or regenerate codes and turn off. */
export const TwoFactorSection: FC<{ state: TwoFactorState; csrfToken: string }> = ({ state, csrfToken }) => (
  <section class="card" id="two-factor">
    <h2>Two-factor authentication</h2>
    {state.enabled ? (
      <>
        <p>
          <strong>On.</strong> Signing in asks for a code from your authenticator app.{' '}
          {state.recoveryCodesLeft} unused recovery code{state.recoveryCodesLeft === 1 ? '' : 's'} left.
        </p>
        <div class="actions">
          <form method="post" action="/account/two-factor/recovery-codes">
            <CsrfField token={csrfToken} />
            <button type="submit" class="btn">
              Make new recovery codes
            </button>
          </form>
          <form method="post" action="/account/two-factor/disable">
            <CsrfField token={csrfToken} />
            <button type="submit" class="btn">
              Turn off two-factor authentication
            </button>
          </form>
        </div>
        <p class="hint">Both ask you to sign in again if you last did more than a few minutes ago.</p>
      </>
    ) : (
      <>
        <p>Add a code from an authenticator app to your password when you sign in.</p>
        <form method="post" action="/account/two-factor">
          <CsrfField token={csrfToken} />
          <button type="submit" class="btn btn-primary">
            {state.pending ? 'Continue setting up the authenticator app' : 'Set up an authenticator app'}
          </button>
        </form>
      </>
    )}
  </section>
);
