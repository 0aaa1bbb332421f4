import { parseArgs } from 'node:util';
import { AuthorizationResponseError } from 'oauth4webapi';
import { listenForCallback, signIn } from './client.js';

/**
 * A third-party application signing a user in to Tollgate:
 *   npx tsx examples/client-app/main.ts --client-id <id> [--client-secret <secret>]
 * Flags or env: --base-url (TOLLGATE_URL, default http://127.0.0.1:3000), --client-id (CLIENT_ID),
 * --client-secret (CLIENT_SECRET), --port (REDIRECT_PORT, default 8085), --scope (SCOPE).
 */
const { values } = parseArgs({
  options: {
    'base-url': { type: 'string', default: process.env.TOLLGATE_URL ?? 'http://127.0.0.1:3000' },
    'client-id': { type: 'string', default: process.env.CLIENT_ID },
    'client-secret': { type: 'string', default: process.env.CLIENT_SECRET },
    port: { type: 'string', default: process.env.REDIRECT_PORT ?? '8085' },
    scope: { type: 'string', default: process.env.SCOPE ?? 'check-status' },
  },
});

const callback = await listenForCallback(Number(values.port));
if (!values['client-id']) {
  console.error(
    `Create an OAuth client in the dashboard (${values['base-url']}/dashboard/clients) with the redirect URL\n` +
      `  ${callback.redirectUri}\nthen run again with --client-id <id> --client-secret <secret>.`,
  );
  await callback.close();
  process.exit(2);
}

try {
  const { user, scope } = await signIn({
    baseUrl: values['base-url'],
    clientId: values['client-id'],
    clientSecret: values['client-secret'],
    scope: values.scope,
    callback,
    open: (url) => console.log(`Open this URL in your browser to sign in:\n\n  ${url}\n`),
  });
  console.log(`Signed in (scopes: ${scope || 'none'}). GET /api/user answered:`);
  console.log(JSON.stringify(user, null, 2));
} catch (err) {
  const reason = err instanceof AuthorizationResponseError ? `${err.error} (the user denied)` : String(err);
  console.error(`Sign-in failed: ${reason}`);
  process.exitCode = 1;
} finally {
  await callback.close();
}
