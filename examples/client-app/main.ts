import { parseArgs } from 'node:util';
import { AuthorizationResponseError, ResponseBodyError } from 'oauth4webapi';
import { listenForCallback, type SignedIn, signIn } from './client.js';
import { deviceSignIn } from './device.js';

/**
 * A third-party application signing a user in to Tollgate:
 *   npx tsx examples/client-app/main.ts --client-id <id> [--client-secret=<secret>]
 *   npx tsx examples/client-app/main.ts --device --client-id <id>   (a `tollgate client --device` client)
 * Flags or env: --base-url (TOLLGATE_URL, default http://127.0.0.1:3000), --client-id (CLIENT_ID),
 * --client-secret (CLIENT_SECRET), --port (REDIRECT_PORT, default 8085), --scope (SCOPE),
 * --device: the device flow (RFC 8628) instead of a browser redirect: prints a URL and a code.
 */
const { values } = parseArgs({
  options: {
    'base-url': { type: 'string', default: process.env.TOLLGATE_URL ?? 'http://127.0.0.1:3000' },
    'client-id': { type: 'string', default: process.env.CLIENT_ID },
    'client-secret': { type: 'string', default: process.env.CLIENT_SECRET },
    port: { type: 'string', default: process.env.REDIRECT_PORT ?? '8085' },
    scope: { type: 'string', default: process.env.SCOPE ?? 'check-status' },
    device: { type: 'boolean', default: false },
  },
});

function report(result: SignedIn): void {
  console.log(`Signed in (scopes: ${result.scope || 'none'}). GET /api/user answered:`);
  console.log(JSON.stringify(result.user, null, 2));
}

function failed(err: unknown): void {
  const reason =
    err instanceof AuthorizationResponseError || err instanceof ResponseBodyError
      ? `${err.error}${err.error === 'access_denied' ? ' (the user denied)' : ''}`
      : String(err);
  console.error(`Sign-in failed: ${reason}`);
  process.exitCode = 1;
}

if (values.device) {
  if (!values['client-id']) {
    console.error(
      'Create a device client with `tollgate client --device`, then run again with --client-id <id>.',
    );
    process.exit(2);
  }
  try {
    report(
      await deviceSignIn({
        baseUrl: values['base-url'],
        clientId: values['client-id'],
        clientSecret: values['client-secret'],
        scope: values.scope,
        show: ({ verificationUri, verificationUriComplete, userCode, expiresIn }) => {
          console.log(`To sign in, open\n\n  ${verificationUri}\n\nand enter the code\n\n  ${userCode}\n`);
          if (verificationUriComplete) console.log(`(or open ${verificationUriComplete})`);
          console.log(`Waiting for approval (the code expires in ${Math.round(expiresIn / 60)} minutes)…`);
        },
      }),
    );
  } catch (err) {
    failed(err);
  }
} else {
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
    report(
      await signIn({
        baseUrl: values['base-url'],
        clientId: values['client-id'],
        clientSecret: values['client-secret'],
        scope: values.scope,
        callback,
        open: (url) => console.log(`Open this URL in your browser to sign in:\n\n  ${url}\n`),
      }),
    );
  } catch (err) {
    failed(err);
  } finally {
    await callback.close();
  }
}
