import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { Users } from '../../auth/users.js';
import { hasControlCharacters } from '../../core/text.js';
import type { Application } from '../../kernel/application.js';
import { knownGrantTypes, serializeClient } from '../../oauth/clients/clients.js';
import { OAuthError } from '../../oauth/errors.js';
import { GrantRegistry } from '../../oauth/grants/registry.js';
import { Clients, type CreatedClient, Scopes } from '../../oauth/index.js';
import { installOAuth } from '../../oauth/install.js';
import { ClientLogout, type LogoutSettings } from '../../oauth/logout/client-logout.js';
import { bindOAuthServices } from '../../oauth/provider.js';
import { DEVICE_CODE_GRANT } from '../../oauth/records.js';
import { checkLogoutMetadata } from '../../oauth/registration/client-metadata.js';
import { ClientRegistrations } from '../../oauth/registration/client-registrations.js';
import { redirectListProblem } from '../../oauth/rules/check-redirect-uri.js';
import { OAuthStoreKey } from '../../oauth/stores/contracts.js';
import { CliError, withApplication } from '../context.js';

/** The OAuth services on the CLI's application, whether or not it registered `oauthProvider()`. */
export async function prepared(app: Application): Promise<Application> {
  if (!app.container.has(OAuthStoreKey)) bindOAuthServices(app.container);
  await app.migrate();
  return app;
}

/**
 * Answers from a TTY prompt or, when stdin is piped, one line each (STACK.md: prompt libraries
 * lose piped stdin). An empty answer or the end of input takes the default.
 */
class Prompter {
  #lines: AsyncIterator<string> | undefined;
  #rl: ReturnType<typeof createInterface> | undefined;

  async ask(question: string, fallback: string): Promise<string> {
    this.#rl ??= createInterface({
      input: process.stdin,
      output: process.stdin.isTTY ? process.stdout : undefined,
    });
    if (process.stdin.isTTY) {
      const answer = await new Promise<string>((done) =>
        this.#rl!.question(`${question} [${fallback}]: `, done),
      );
      return answer.trim() || fallback;
    }
    this.#lines ??= this.#rl[Symbol.asyncIterator]();
    const next = await this.#lines.next();
    return (next.done ? '' : next.value.trim()) || fallback;
  }

  close(): void {
    this.#rl?.close();
  }
}

function printClient(label: string, created: CreatedClient): void {
  const device = created.client.grantTypes?.includes(DEVICE_CODE_GRANT) ?? false;
  console.log(`${label} created successfully.`);
  console.log(`Client ID: ${created.client.id}`);
  console.log(
    `Client secret: ${created.plainSecret ?? (device ? '(none: public client)' : '(none: public client, use PKCE)')}`,
  );
}

/** What `--device` makes: a public client of the device grant (RFC 8628) that may refresh its tokens. */
const DEVICE_CLIENT_GRANTS = [DEVICE_CODE_GRANT, 'refresh_token'];

export function register(program: Command): void {
  program
    .command('install')
    .description('Create the OAuth signing keys, a personal access client and a password grant client.')
    .option('--force', 'overwrite existing keys and create new clients')
    .option('--json', 'machine-readable output')
    .action((options: { force?: boolean; json?: boolean }) =>
      withApplication(async (application) => {
        const app = await prepared(application);
        const result = await installOAuth(app, options);
        const { personalAccessClient: personal, passwordClient: password, keys } = result;
        if (options.json) {
          console.log(
            JSON.stringify({
              keys,
              personalAccessClient: personal ? serializeClient(personal.client, personal.plainSecret) : null,
              passwordClient: password ? serializeClient(password.client, password.plainSecret) : null,
            }),
          );
          return;
        }
        const { config } = app;
        if (keys.source === 'environment')
          console.log('Using the signing keys from OAUTH_PRIVATE_KEY / OAUTH_PUBLIC_KEY.');
        else if (keys.written)
          console.log(
            `Encryption keys generated in ${config.storagePath} (${config.oauth.signingAlgorithm}).`,
          );
        else console.log('Encryption keys already exist; kept them (use --force to overwrite).');
        if (personal) printClient('Personal access client', personal);
        else console.log('A personal access client already exists; kept it.');
        if (password) printClient('Password grant client', password);
        else console.log('A password grant client already exists; kept it.');
      }),
    );

  program
    .command('client')
    .description('Create an OAuth client (asks for what it needs; prints its ID and secret).')
    .option('--password', 'a password grant client')
    .option('--personal', 'a personal access client')
    .option('--public', 'a public client: no secret, PKCE required')
    .option(
      '--device',
      'a device client (RFC 8628): public, for the device grant and refresh tokens; no redirect',
    )
    .option(
      '--resource-server',
      'a resource server: may introspect any access token (RFC 7662), not only its own',
    )
    .option('--name <name>', 'the client name')
    .option('--redirect <url>', 'the redirect URL (authorization code clients)')
    .option('--user <id>', 'the id of the user who owns the client')
    .option('--first-party', 'a client of your own: users are not asked to approve it')
    .option('--require-par', 'its authorization requests must be pushed first (RFC 9126)')
    .option('--scopes <list>', 'comma-separated scopes the client may ask for (default: any)')
    .option('--grant-types <list>', 'comma-separated grant types the client may use (default: its kind’s)')
    .option(
      '--post-logout-redirect <list>',
      'comma-separated URLs users may be sent to after logging out (RP-Initiated Logout)',
    )
    .option(
      '--backchannel-logout <url>',
      'where logout tokens are POSTed when a session ends (Back-Channel Logout)',
    )
    .option('--json', 'machine-readable output')
    .action(
      (options: {
        postLogoutRedirect?: string;
        backchannelLogout?: string;
        password?: boolean;
        personal?: boolean;
        public?: boolean;
        device?: boolean;
        resourceServer?: boolean;
        name?: string;
        redirect?: string;
        user?: string;
        firstParty?: boolean;
        requirePar?: boolean;
        scopes?: string;
        grantTypes?: string;
        json?: boolean;
      }) =>
        withApplication(async (application) => {
          if (options.password && options.personal)
            throw new CliError('Choose one of --password and --personal.');
          if (options.personal && options.public)
            throw new CliError('A personal access client cannot be public.');
          if (options.resourceServer && (options.public || options.device))
            throw new CliError('A resource server must authenticate to introspect: it cannot be public.');
          if (options.device && (options.password || options.personal))
            throw new CliError('A device client is neither a password nor a personal access client.');
          if (options.device && (options.redirect !== undefined || options.grantTypes !== undefined))
            throw new CliError(
              '--device takes no --redirect or --grant-types (use --public --grant-types to combine grants).',
            );
          const publicClient = Boolean(options.public || options.device);
          const app = await prepared(application);
          const { config } = app;
          const prompter = new Prompter();
          try {
            const kind = options.personal
              ? 'Personal Access'
              : options.password
                ? 'Password Grant'
                : options.resourceServer
                  ? 'Resource Server'
                  : options.device
                    ? 'Device'
                    : '';
            const name =
              options.name ??
              (await prompter.ask(
                'What should we name the client?',
                `${config.app.name}${kind ? ` ${kind}` : ''} Client`,
              ));
            const redirect =
              options.redirect ??
              (options.device
                ? ''
                : options.personal || options.password
                  ? config.app.url
                  : await prompter.ask(
                      'Where should we redirect the request after authorization?',
                      `${config.app.url.replace(/\/+$/, '')}/auth/callback`,
                    ));
            if (!name.trim() || name.length > 255 || hasControlCharacters(name))
              throw new CliError('The client name must be 1 to 255 characters, without control characters.');
            const problem = options.device ? undefined : redirectListProblem(redirect, { publicClient });
            if (problem) throw new CliError(`${problem} (got ${JSON.stringify(redirect)})`);
            const limits = clientLimits(app, options);
            if (options.device) limits.grantTypes = DEVICE_CLIENT_GRANTS;
            const logout = logoutSettings(options, publicClient, config.oauth.maxRedirectsPerClient);
            const userId = options.user ?? '';
            let owner: number | null = null;
            if (userId) {
              owner = Number(userId);
              if (!Number.isInteger(owner) || !(await app.container.make(Users).find(owner))) {
                throw new CliError(`No user with id ${userId}.`);
              }
            }
            const created = await app.container.make(Clients).create({
              name,
              redirect,
              userId: owner,
              personalAccess: Boolean(options.personal),
              password: Boolean(options.password),
              confidential: !publicClient,
              firstParty: Boolean(options.firstParty),
              ...limits,
              resourceServer: Boolean(options.resourceServer),
              requirePushedAuthorizationRequests: Boolean(options.requirePar),
            });
            if (logout) await app.container.make(ClientLogout).save(created.client.id, logout);
            if (options.json)
              console.log(JSON.stringify(serializeClient(created.client, created.plainSecret)));
            else printClient(kind ? `${kind} client` : 'New client', created);
          } finally {
            prompter.close();
          }
        }),
    );

  program
    .command('client:registration-token')
    .description(
      'Create an initial access token for dynamic client registration (oauth.registration: token); printed once.',
    )
    .option('--expires <seconds>', 'how long it is valid', '86400')
    .option('--json', 'print { token, expires_at } as JSON')
    .action((options: { expires: string; json?: boolean }) =>
      withApplication(async (application) => {
        const seconds = Number(options.expires);
        if (!Number.isInteger(seconds) || seconds < 1)
          throw new CliError('--expires must be a whole number of seconds, at least 1.');
        const app = await prepared(application);
        const { token, expiresAt } = await app.container
          .make(ClientRegistrations)
          .createInitialToken(seconds);
        if (options.json) console.log(JSON.stringify({ token, expires_at: expiresAt }));
        else console.log(`Initial access token (valid until ${expiresAt}):\n${token}`);
      }),
    );

  program
    .command('purge')
    .description('Delete revoked and expired tokens, refresh tokens and authorization codes.')
    .option('--revoked', 'only revoked ones')
    .option('--expired', 'only expired ones')
    .option('--hours <n>', 'keep what expired within the last N hours', '168')
    .option('--fast', 'delete without resting between batches (by default it takes at most half a core)')
    .action((options: { revoked?: boolean; expired?: boolean; hours: string; fast?: boolean }) =>
      withApplication(async (application) => {
        const hours = Number(options.hours);
        if (!Number.isFinite(hours) || hours < 0)
          throw new CliError('--hours must be a number of at least 0.');
        const app = await prepared(application);
        const both = !options.revoked && !options.expired;
        const before = new Date(app.clock.now().getTime() - hours * 3_600_000).toISOString();
        const counts = await app.container.make(OAuthStoreKey).purge({
          revoked: both || Boolean(options.revoked),
          expired: both || Boolean(options.expired),
          before,
          paced: !options.fast,
        });
        const what = both ? 'Revoked and expired' : options.revoked ? 'Revoked' : 'Expired';
        console.log(
          `${what} tokens purged: ${counts.accessTokens} access tokens, ${counts.refreshTokens} refresh tokens, ${counts.authCodes} authorization codes, ${counts.deviceCodes} device codes, ${counts.pushedRequests} pushed authorization requests, ${counts.registrationTokens} initial access tokens, ${counts.apiKeys} API keys, ${counts.logoutSessions} logout session records.`,
        );
      }),
    );
}

/**
 * `--post-logout-redirect` and `--backchannel-logout`, checked as dynamic registration checks
 * them; the logout token always carries `sid`. Undefined: neither flag.
 */
function logoutSettings(
  options: { postLogoutRedirect?: string; backchannelLogout?: string },
  publicClient: boolean,
  maxRedirects: number,
): LogoutSettings | undefined {
  if (options.postLogoutRedirect === undefined && options.backchannelLogout === undefined) return undefined;
  try {
    return checkLogoutMetadata(
      {
        post_logout_redirect_uris: options.postLogoutRedirect?.split(',').map((uri) => uri.trim()) ?? [],
        ...(options.backchannelLogout === undefined
          ? {}
          : { backchannel_logout_uri: options.backchannelLogout, backchannel_logout_session_required: true }),
      },
      { publicClient, maxRedirects },
    );
  } catch (err) {
    if (err instanceof OAuthError) throw new CliError(err.description);
    throw err;
  }
}

/** `--scopes` and `--grant-types`, checked against the application's scopes and known grants. */
function clientLimits(
  app: Application,
  options: { scopes?: string; grantTypes?: string },
): { allowedScopes: string[] | null; grantTypes: string[] | null } {
  const list = (value: string | undefined) =>
    value === undefined
      ? null
      : [
          ...new Set(
            value
              .split(',')
              .map((item) => item.trim())
              .filter(Boolean),
          ),
        ];
  const allowedScopes = list(options.scopes);
  const unknownScope = allowedScopes?.find((scope) => !app.container.make(Scopes).has(scope));
  if (unknownScope !== undefined)
    throw new CliError(`--scopes: "${unknownScope}" is not a scope of this application.`);
  const grantTypes = list(options.grantTypes);
  const known = knownGrantTypes(app.container.make(GrantRegistry));
  const unknownGrant = grantTypes?.find((grant) => !known.includes(grant));
  if (unknownGrant !== undefined)
    throw new CliError(`--grant-types: "${unknownGrant}" is not one of ${known.join(', ')}.`);
  return { allowedScopes, grantTypes };
}

/** A password grant client unless one exists (or `force`). */
