import type { FC } from 'hono/jsx';
import { CsrfField, Field } from '../views/components.js';
import type { Membership } from './organizations.js';

/** `GET /organizations`: the user's organizations and the form to create one. */
export const OrganizationsPage: FC<{ memberships: Membership[]; csrfToken: string; errors?: string[] }> = (
  p,
) => (
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
