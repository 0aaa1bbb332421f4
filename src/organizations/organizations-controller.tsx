import type { Context } from 'hono';
import { csrfToken, currentUser } from '../auth/context.js';
import type { User } from '../auth/user.js';
import { HttpError } from '../core/errors.js';
import { wantsJson } from '../http/respond.js';
import { renderPage } from '../views/render.js';
import { DomainJoin } from './domain-join.js';
import { Invitations } from './invitations.js';
import { OrganizationPage } from './organization-page.js';
import { Organizations } from './organizations.js';
import { OrganizationsPage } from './organizations-page.js';
import { OrganizationPageLinks } from './page-links.js';

/** An id from the path; anything that is not one is a 404, like an organization one is not in. */
export function idParam(c: Context, name: string): number {
  const value = c.req.param(name) ?? '';
  if (!/^[1-9][0-9]{0,9}$/.test(value)) throw new HttpError(404, 'Not Found');
  return Number(value);
}

async function field(c: Context, name: string): Promise<string> {
  const body = await c.req.parseBody();
  const value = body[name];
  return typeof value === 'string' ? value : '';
}

/** `/organizations`: list, create, and one organization's members, roles and invitations (behind `auth`). */
export class OrganizationsController {
  static inject = [Organizations, Invitations, DomainJoin, OrganizationPageLinks] as const;

  constructor(
    private readonly organizations: Organizations,
    private readonly invitations: Invitations,
    private readonly domains: DomainJoin,
    private readonly links: OrganizationPageLinks,
  ) {}

  async index(c: Context): Promise<Response> {
    const user = currentUser(c)!;
    const memberships = await this.organizations.forUser(user.id);
    const joinable = await this.domains.joinable(user);
    if (wantsJson(c))
      return c.json({
        data: memberships.map((m) => ({ id: m.organization.id, name: m.organization.name, role: m.role })),
        joinable,
      });
    return renderPage(
      c,
      { title: 'Organizations' },
      <OrganizationsPage memberships={memberships} joinable={joinable} csrfToken={csrfToken(c)} />,
    );
  }

  /** `POST /organizations/{id}/join`: join as a member by the verified address's domain. */
  async join(c: Context): Promise<Response> {
    const id = idParam(c, 'organization');
    return this.act(c, '/organizations', async () => ({
      message: `You joined ${await this.domains.join(currentUser(c)!, id)}.`,
      to: `/organizations/${id}`,
    }));
  }

  /** `POST /organizations/{id}/domain` (`domain`, empty to end it): who may join by e-mail domain. */
  async setDomain(c: Context): Promise<Response> {
    const id = idParam(c, 'organization');
    const value = await field(c, 'domain');
    return this.act(c, `/organizations/${id}`, async () => {
      const domain = await this.domains.setDomain(currentUser(c)!, id, value);
      const message = domain
        ? `Anyone with a verified address at ${domain} may now join.`
        : 'Joining by e-mail domain is off.';
      return { message, to: `/organizations/${id}` };
    });
  }

  async store(c: Context): Promise<Response> {
    const user = currentUser(c)!;
    const name = await field(c, 'name');
    return this.act(c, '/organizations', async () => {
      const organization = await this.organizations.create(user.id, name);
      return {
        message: `${organization.name} is created.`,
        to: `/organizations/${organization.id}`,
        id: organization.id,
      };
    });
  }

  async show(c: Context): Promise<Response> {
    const user = currentUser(c)!;
    const id = idParam(c, 'organization');
    const membership = await this.organizations.membership(user.id, id);
    const members = await this.organizations.members(id);
    if (wantsJson(c))
      return c.json({ id, name: membership.organization.name, role: membership.role, members });
    const canInvite = this.organizations.roles.can(membership.role, 'members.invite');
    return renderPage(
      c,
      { title: membership.organization.name },
      <OrganizationPage
        membership={membership}
        userId={user.id}
        members={members}
        invitations={canInvite ? await this.invitations.pending(id) : []}
        roles={this.organizations.roles}
        links={this.links.list()}
        csrfToken={csrfToken(c)}
      />,
    );
  }

  rename(c: Context): Promise<Response> {
    return this.inOrganization(c, async (user, id) => {
      await this.organizations.rename(user.id, id, await field(c, 'name'));
      return 'The organization is renamed.';
    });
  }

  async destroy(c: Context): Promise<Response> {
    const id = idParam(c, 'organization');
    return this.act(c, `/organizations/${id}`, async () => {
      await this.organizations.delete(currentUser(c)!.id, id);
      return { message: 'The organization is deleted.', to: '/organizations' };
    });
  }

  async leave(c: Context): Promise<Response> {
    const id = idParam(c, 'organization');
    return this.act(c, `/organizations/${id}`, async () => {
      await this.organizations.leave(currentUser(c)!.id, id);
      return { message: 'You left the organization.', to: '/organizations' };
    });
  }

  changeRole(c: Context): Promise<Response> {
    return this.inOrganization(c, async (user, id) => {
      await this.organizations.changeRole(user.id, id, idParam(c, 'user'), await field(c, 'role'));
      return 'The role is changed.';
    });
  }

  removeMember(c: Context): Promise<Response> {
    return this.inOrganization(c, async (user, id) => {
      await this.organizations.remove(user.id, id, idParam(c, 'user'));
      return 'The member is removed.';
    });
  }

  transfer(c: Context): Promise<Response> {
    return this.inOrganization(c, async (user, id) => {
      const to = Number(await field(c, 'user_id'));
      await this.organizations.transferOwnership(user.id, id, Number.isSafeInteger(to) ? to : 0);
      return 'Ownership is transferred: you are now an admin.';
    });
  }

  invite(c: Context): Promise<Response> {
    return this.inOrganization(c, async (user, id) => {
      const body = await c.req.parseBody();
      const email = typeof body.email === 'string' ? body.email : '';
      await this.invitations.invite(user, id, email, typeof body.role === 'string' ? body.role : 'member');
      return `We sent an invitation to ${email.trim().toLowerCase()}.`;
    });
  }

  resendInvitation(c: Context): Promise<Response> {
    return this.inOrganization(c, async (user, id) => {
      await this.invitations.resend(user, id, idParam(c, 'invitation'));
      return 'The invitation is sent again; the earlier link no longer works.';
    });
  }

  revokeInvitation(c: Context): Promise<Response> {
    return this.inOrganization(c, async (user, id) => {
      await this.invitations.revoke(user, id, idParam(c, 'invitation'));
      return 'The invitation is revoked.';
    });
  }

  /** A change to the organization in the path; back to its page afterwards. */
  private inOrganization(c: Context, change: (user: User, id: number) => Promise<string>): Promise<Response> {
    const id = idParam(c, 'organization');
    const page = `/organizations/${id}`;
    return this.act(c, page, async () => ({ message: await change(currentUser(c)!, id), to: page }));
  }

  /**
   * Runs a change: JSON `{ message }`, or a redirect with it flashed. A refusal (403, 409, 422) is
   * JSON with its status, or flashed as an error back on `back`; a 404 stays a 404.
   */
  private async act(
    c: Context,
    back: string,
    change: () => Promise<{ message: string; to: string; id?: number }>,
  ): Promise<Response> {
    try {
      const done = await change();
      if (wantsJson(c)) return c.json({ message: done.message, ...(done.id ? { id: done.id } : {}) });
      c.get('session')?.flash('status', done.message);
      return c.redirect(done.to, 303);
    } catch (err) {
      if (!(err instanceof HttpError) || err.status === 404 || wantsJson(c)) throw err;
      c.get('session')?.flash('error', err.message);
      return c.redirect(back, 303);
    }
  }
}
