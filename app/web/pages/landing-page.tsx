import type { FC } from 'hono/jsx';

export interface LandingProps {
  appName: string;
  baseUrl: string;
  signedIn: boolean;
}

const FEATURES: Array<[string, string]> = [
  [
    'OAuth 2.0 server',
    'Authorization code with PKCE, client credentials, password and refresh grants; revocation, introspection and discovery.',
  ],
  [
    'Personal access tokens',
    'Long-lived tokens for your own scripts, with scopes, created and revoked from the dashboard.',
  ],
  [
    'Protected API',
    'Bearer tokens checked on every request, with per-route scopes. This site calls the API with an encrypted cookie instead.',
  ],
  [
    'Subscription billing',
    'Plans, trials, swaps, cancel with a grace period, resume, card updates and PDF invoices.',
  ],
];

/** `/`: what the service is, and where to go next. */
export const LandingPage: FC<LandingProps> = ({ appName, baseUrl, signedIn }) => (
  <>
    <section class="hero">
      <h1>{appName}: an API with OAuth tokens and subscription billing built in</h1>
      <p>
        Sign up, register OAuth clients for your applications, issue personal access tokens, subscribe to a
        plan, and call the API — all from one dashboard.
      </p>
      <div class="actions">
        {signedIn ? (
          <a class="btn btn-primary" href="/dashboard">
            Go to the dashboard
          </a>
        ) : (
          <>
            <a class="btn btn-primary" href="/register">
              Create an account
            </a>
            <a class="btn" href="/login">
              Log in
            </a>
          </>
        )}
        <a class="btn" href="/docs">
          Read the docs
        </a>
      </div>
    </section>
    <div class="grid grid-2 mb-lg">
      {FEATURES.map(([title, text]) => (
        <section class="card feature m-0">
          <h3>{title}</h3>
          <p>{text}</p>
        </section>
      ))}
    </div>
    <section class="card">
      <h2>The API</h2>
      <p>Create a personal access token in the dashboard, then:</p>
      {/* Focusable, so a keyboard can scroll the commands on a phone (WCAG 2.1.1). */}
      <pre tabindex={0}>
        <code>{`curl -H "Authorization: Bearer $TOKEN" ${baseUrl}/api/user\ncurl -H "Authorization: Bearer $TOKEN" ${baseUrl}/api/orders   # scope check-status`}</code>
      </pre>
      <p class="small muted m-0">
        OAuth metadata:{' '}
        <a href="/.well-known/oauth-authorization-server">/.well-known/oauth-authorization-server</a> · Keys:{' '}
        <a href="/oauth/jwks">/oauth/jwks</a> · <a href="/docs/oauth">OAuth guide</a> ·{' '}
        <a href="/docs/protecting-routes">Protected routes</a>
      </p>
    </section>
  </>
);
