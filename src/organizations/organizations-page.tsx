import type { FC } from 'hono/jsx';
import { CsrfField, Field } from '../views/components.js';
import type { Membership } from './organizations.js';

/** `GET /organizations`: the user's organizations and the form to create one. */
export const OrganizationsPage: FC<{
  memberships: Membership[];
  /** Organizations the user may join by their verified address's domain. */
  joinable?: { id: number; name: string }[];
  csrfToken: string;
  errors?: string[];
}> = (p) => (
  <div class="stack">
    <section class="card">
      <h1>Organizations</h1>
      {p.memberships.length === 0 ? (
        <p>You are not in any organization. Your personal account works on its own.</p>
      ) : (
        <ul>
          {p.memberships.map((m) => (
            <li>
              <a href={`/organizations/${m.organization.id}`}>{m.organization.name}</a> ({m.role})
            </li>
          ))}
        </ul>
      )}
    </section>
    {p.joinable?.length ? (
      <section class="card" id="joinable">
        <h2>Organizations you can join</h2>
        <p class="muted">They let anyone with a verified address at your domain join as a member.</p>
        <ul>
          {p.joinable.map((o) => (
            <li>
              <form method="post" action={`/organizations/${o.id}/join`} class="inline">
                <CsrfField token={p.csrfToken} />
                {o.name}{' '}
                <button type="submit" class="btn">
                  Join {o.name}
                </button>
              </form>
            </li>
          ))}
        </ul>
      </section>
    ) : null}
    <section class="card" id="create">
      <h2>Create an organization</h2>
      <form method="post" action="/organizations">
        <CsrfField token={p.csrfToken} />
        <Field name="name" label="Name" errors={p.errors} required />
        <button type="submit" class="btn btn-primary">
          Create
        </button>
      </form>
    </section>
  </div>
);
