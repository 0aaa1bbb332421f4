import type { FC } from 'hono/jsx';
import { CsrfField, Field } from '../views/components.js';
import type { MemberListing, Membership } from './organizations.js';
import type { OrganizationPageLink } from './page-links.js';
import type { OrganizationRoles } from './roles.js';
import type { InvitationRow } from './tables.js';

export interface OrganizationPageProps {
  membership: Membership;
  userId: number;
  members: MemberListing[];
  invitations: InvitationRow[];
  roles: OrganizationRoles;
  /** The pages of the organization that are on (usage, audit log), shown as the role allows. */
  links: readonly OrganizationPageLink[];
  csrfToken: string;
}

/** `GET /organizations/:id`: members and their roles, invitations, and what the viewer's role allows. */
export const OrganizationPage: FC<OrganizationPageProps> = (p) => {
  const { organization, role } = p.membership;
  const can = (permission: string) => p.roles.can(role, permission);
  const base = `/organizations/${organization.id}`;
  return (
    <div class="stack">
      <section class="card">
        <h1>{organization.name}</h1>
        <p>Your role: {role}</p>
        {p.links
          .filter((link) => can(link.permission))
          .map((link) => (
            <p>
              <a href={`${base}/${link.path}`}>{link.label}</a>
            </p>
          ))}
        <form method="post" action={`${base}/leave`}>
          <CsrfField token={p.csrfToken} />
          <button type="submit" class="btn">
            Leave {organization.name}
          </button>
        </form>
      </section>

      <section class="card" id="members">
        <h2>Members</h2>
        <table class="table">
          <thead>
            <tr>
              <th>Name</th>
              <th>E-mail</th>
              <th>Role</th>
              {can('members.update') || can('members.remove') ? <th>Change</th> : null}
            </tr>
          </thead>
          <tbody>
            {p.members.map((m) => (
              <tr>
                <td>{m.name}</td>
                <td>{m.email}</td>
                <td>{m.role}</td>
                {can('members.update') || can('members.remove') ? (
                  <td>{m.userId === p.userId ? null : <MemberForms {...p} member={m} base={base} />}</td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      {can('members.invite') ? <InviteSection {...p} base={base} /> : null}

      {can('organization.update') ? (
        <section class="card" id="rename">
          <h2>Rename</h2>
          <form method="post" action={base}>
            <CsrfField token={p.csrfToken} />
            <Field name="name" label="Organization name" value={organization.name} required />
            <button type="submit" class="btn">
              Rename
            </button>
          </form>
        </section>
      ) : null}

      {can('members.auto-join') ? (
        <section class="card" id="domain">
          <h2>Join by e-mail domain</h2>
          <p>
            Anyone whose verified address is at this domain may join as a member from their Organizations
            page. Only the domain of your own verified address can be set; leave it empty to turn this off.
          </p>
          <form method="post" action={`${base}/domain`}>
            <CsrfField token={p.csrfToken} />
            <Field name="domain" label="E-mail domain" value={organization.auto_join_domain ?? ''} />
            <button type="submit" class="btn">
              Save domain
            </button>
          </form>
        </section>
      ) : null}

      {can('organization.transfer') && p.members.length > 1 ? <TransferSection {...p} base={base} /> : null}

      {can('organization.delete') ? (
        <section class="card" id="delete">
          <h2>Delete the organization</h2>
          <p>Every membership and invitation goes with it.</p>
          <form method="post" action={`${base}/delete`}>
            <CsrfField token={p.csrfToken} />
            <button type="submit" class="btn btn-danger">
              Delete {organization.name}
            </button>
          </form>
        </section>
      ) : null}
    </div>
  );
};

const MemberForms: FC<OrganizationPageProps & { member: MemberListing; base: string }> = (p) => {
  const id = `role-${p.member.userId}`;
  return (
    <div class="inline">
      <form method="post" action={`${p.base}/members/${p.member.userId}/role`}>
        <CsrfField token={p.csrfToken} />
        <label for={id}>Role of {p.member.name}</label>
        <select id={id} name="role">
          {p.roles.names().map((r) => (
            <option value={r} selected={r === p.member.role}>
              {r}
            </option>
          ))}
        </select>
        <button type="submit" class="btn">
          Change role
        </button>
      </form>
      <form method="post" action={`${p.base}/members/${p.member.userId}/remove`}>
        <CsrfField token={p.csrfToken} />
        <button type="submit" class="btn">
          Remove {p.member.name}
        </button>
      </form>
    </div>
  );
};

const InviteSection: FC<OrganizationPageProps & { base: string }> = (p) => (
  <section class="card" id="invitations">
    <h2>Invite someone</h2>
    <form method="post" action={`${p.base}/invitations`}>
      <CsrfField token={p.csrfToken} />
      <Field name="email" label="E-mail address" type="email" required />
      <div class="field">
        <label for="field-invite-role">Role</label>
        <select id="field-invite-role" name="role">
          {p.roles.names().map((r) => (
            <option value={r} selected={r === 'member'}>
              {r}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" class="btn btn-primary">
        Send the invitation
      </button>
    </form>
    {p.invitations.length > 0 ? (
      <table class="table">
        <thead>
          <tr>
            <th>Invited</th>
            <th>Role</th>
            <th>Expires</th>
            <th>Change</th>
          </tr>
        </thead>
        <tbody>
          {p.invitations.map((i) => (
            <tr>
              <td>{i.email}</td>
              <td>{i.role}</td>
              <td>
                <time datetime={i.expires_at}>{i.expires_at.slice(0, 16).replace('T', ' ')} UTC</time>
              </td>
              <td>
                <form method="post" action={`${p.base}/invitations/${i.id}/resend`}>
                  <CsrfField token={p.csrfToken} />
                  <button type="submit" class="btn">
                    Resend to {i.email}
                  </button>
                </form>
                <form method="post" action={`${p.base}/invitations/${i.id}/revoke`}>
                  <CsrfField token={p.csrfToken} />
                  <button type="submit" class="btn">
                    Revoke {i.email}
                  </button>
                </form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    ) : null}
  </section>
);

const TransferSection: FC<OrganizationPageProps & { base: string }> = (p) => (
  <section class="card" id="transfer">
    <h2>Transfer ownership</h2>
    <p>The member you choose becomes an owner; you become an admin.</p>
    <form method="post" action={`${p.base}/transfer`}>
      <CsrfField token={p.csrfToken} />
      <div class="field">
        <label for="field-transfer-to">New owner</label>
        <select id="field-transfer-to" name="user_id">
          {p.members
            .filter((m) => m.userId !== p.userId)
            .map((m) => (
              <option value={String(m.userId)}>
                {m.name} ({m.email})
              </option>
            ))}
        </select>
      </div>
      <button type="submit" class="btn">
        Transfer ownership
      </button>
    </form>
  </section>
);
