import type { Context } from 'hono';
import { csrfToken, currentUser } from '../auth/context.js';
import { renderPage } from '../views/render.js';
import { type InvitationFailure, Invitations } from './invitations.js';

const FAILURES: Record<InvitationFailure, string> = {
  invalid: 'This invitation link is not valid. Ask for a new invitation.',
  expired: 'This invitation has expired. Ask for a new invitation.',
  used: 'This invitation has already been used or withdrawn.',
  'other-address': 'This invitation is for another e-mail address. Sign in with the address it was sent to.',
};

/**
 * `/invitations/accept`: the link from the mail. The GET only shows what accepting does (mail
 * scanners open links); the POST from its button accepts. Not signed in: sign in or sign up first,
 * coming back here.
 */
export class InvitationController {
  static inject = [Invitations] as const;

  constructor(private readonly invitations: Invitations) {}

  async show(c: Context): Promise<Response> {
    const token = c.req.query('token') ?? '';
    const user = currentUser(c);
    const checked = await this.invitations.check(token, user);
    if (!checked.ok) return this.failed(c, checked.reason);
    const here = `/invitations/accept?token=${encodeURIComponent(token)}`;
    const title = `Join ${checked.organization}`;
    if (!user) {
      const intended = encodeURIComponent(here);
      return renderPage(
        c,
        { title, intended: here },
        <div class="card narrow">
          <h1>{title}</h1>
          <p>
            You are invited to {checked.organization} as {checked.invitation.role}. Sign in or create an
            account with {checked.invitation.email} to accept.
          </p>
          <p class="actions">
            <a class="btn btn-primary" href={`/login?intended=${intended}`}>
              Sign in
            </a>{' '}
            <a class="btn" href={`/register?intended=${intended}`}>
              Create an account
            </a>
          </p>
        </div>,
      );
    }
    return renderPage(
      c,
      { title },
      <div class="card narrow">
        <h1>{title}</h1>
        <p>
          You are invited to {checked.organization} as {checked.invitation.role}.
        </p>
        <form method="post" action="/invitations/accept">
          <input type="hidden" name="_token" value={csrfToken(c)} />
          <input type="hidden" name="token" value={token} />
          <button type="submit" class="btn btn-primary" autofocus>
            Accept the invitation
          </button>
        </form>
      </div>,
    );
  }

  async accept(c: Context): Promise<Response> {
    const body = await c.req.parseBody();
    const token = typeof body.token === 'string' ? body.token : '';
    const accepted = await this.invitations.accept(token, currentUser(c)!);
    if (!accepted.ok) return this.failed(c, accepted.reason);
    const message = `You joined ${accepted.organization}.`;
    if (c.req.header('accept')?.includes('application/json'))
      return c.json({ message, organization_id: accepted.invitation.organization_id });
    c.get('session')?.flash('status', message);
    return c.redirect(`/organizations/${accepted.invitation.organization_id}`, 303);
  }

  private failed(c: Context, reason: InvitationFailure): Promise<Response> | Response {
    const status = reason === 'other-address' ? 403 : reason === 'invalid' ? 404 : 410;
    if (c.req.header('accept')?.includes('application/json'))
      return c.json({ message: FAILURES[reason], reason }, status);
    return renderPage(
      c,
      { title: 'Invitation', status },
      <div class="card narrow">
        <h1>Invitation</h1>
        <p role="alert">{FAILURES[reason]}</p>
      </div>,
    );
  }
}
