import type { FC } from 'hono/jsx';
import { DashboardFrame } from './frame.js';

export interface OverviewProps {
  user: { name: string; email: string };
  script: string;
  subscription: string;
  counts: { clients: number; tokens: number };
}

/** `/dashboard`: who you are, what you have, and the "try the API" panel. */
export const OverviewPage: FC<OverviewProps> = ({ user, script, subscription, counts }) => (
  <DashboardFrame current="overview" title="Dashboard" script={script}>
    <div class="grid">
      <section class="card">
        <h2>Account</h2>
        <p>
          <strong>{user.name}</strong>
          <br />
          <span class="muted">{user.email}</span>
        </p>
      </section>
      <section class="card">
        <h2>Plan</h2>
        <p data-plan-summary>{subscription}</p>
        <a href="/dashboard/billing">Manage billing →</a>
      </section>
      <section class="card">
        <h2>API access</h2>
        <p>
          {counts.clients} OAuth client{counts.clients === 1 ? '' : 's'}, {counts.tokens} personal token
          {counts.tokens === 1 ? '' : 's'}
        </p>
        <a href="/dashboard/tokens">Manage tokens →</a>
      </section>
    </div>
    <section class="card" data-try-api>
      <h2>Try the API</h2>
      <p class="muted">
        These buttons call the protected API from this page. The browser sends your session's encrypted{' '}
        <code>app_token</code> cookie (HttpOnly: this page's JavaScript cannot read it) with the headers{' '}
        <code>X-CSRF-TOKEN</code> and <code>X-Requested-With: XMLHttpRequest</code>. Programs use a bearer
        token instead.
      </p>
      <div class="actions mt-0 mb-md">
        <button type="button" class="btn" data-call="/api/user">
          GET /api/user
        </button>
        <button type="button" class="btn" data-call="/api/orders">
          GET /api/orders
        </button>
      </div>
      <pre class="console" data-output aria-live="polite" tabindex={0}>
        Pick a request.
      </pre>
    </section>
  </DashboardFrame>
);
