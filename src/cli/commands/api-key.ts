import type { Command } from 'commander';
import { Users } from '../../auth/users.js';
import { ValidationError } from '../../core/errors.js';
import { ApiKeys, OAuthError } from '../../oauth/index.js';
import { bindOAuthServices } from '../../oauth/provider.js';
import { OAuthStoreKey } from '../../oauth/stores/contracts.js';
import { CliError, withApplication } from '../context.js';
import { scopeList } from './token.js';

interface KeyCreateOptions {
  user: string;
  name: string;
  scopes?: string;
  expires?: string;
  rateLimit?: string;
  json?: boolean;
}

/** A whole number from 1 to `max`, or undefined when the option is absent. */
function wholeNumber(value: string | undefined, option: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new CliError(`${option} must be a whole number from 1 to ${max}.`);
  return n;
}

export function register(program: Command): void {
  program
    .command('key:create')
    .description('Create an API key for a user and print it (shown once).')
    .requiredOption('--user <email>', "the user's e-mail address")
    .requiredOption('--name <name>', "a name for the key, unique among the user's live keys")
    .option('--scopes <list>', 'comma-separated scope names (default: none)')
    .option('--expires <days>', 'days until the key stops working (default: never)')
    .option('--rate-limit <n>', 'requests per minute this key may make (default: no per-key limit)')
    .option('--json', 'machine-readable output')
    .action((options: KeyCreateOptions) =>
      withApplication(async (app) => {
        const name = options.name.trim();
        if (!name || name.length > 255) throw new CliError('--name must be 1 to 255 characters.');
        const expiresInDays = wholeNumber(options.expires, '--expires', 3650);
        const rateLimitPerMinute = wholeNumber(options.rateLimit, '--rate-limit', 1_000_000);
        if (!app.container.has(OAuthStoreKey)) bindOAuthServices(app.container);
        await app.migrate();
        const user = await app.container.make(Users).findByEmail(options.user);
        if (!user) throw new CliError(`No user with the e-mail ${options.user}.`);
        let created: Awaited<ReturnType<ApiKeys['create']>>;
        try {
          created = await app.container
            .make(ApiKeys)
            .create(user.id, { name, scopes: scopeList(options.scopes), expiresInDays, rateLimitPerMinute });
        } catch (err) {
          if (err instanceof OAuthError)
            throw new CliError(err.detail ? `${err.description} (${err.detail})` : err.description);
          if (err instanceof ValidationError) throw new CliError(Object.values(err.errors).flat().join(' '));
          throw err;
        }
        const { plainKey, key } = created;
        if (options.json) {
          const { id, scopes, expiresAt } = key;
          console.log(JSON.stringify({ key: plainKey, id, name: key.name, scopes, expires_at: expiresAt }));
          return;
        }
        console.log(`API key "${name}" created for ${user.email} (id ${key.id}).`);
        console.log(`Scopes: ${key.scopes.length ? key.scopes.join(' ') : '(none)'}`);
        console.log(`Expires: ${key.expiresAt ?? 'never'}`);
        console.log('Copy it now, it is not shown again:');
        console.log(plainKey);
      }),
    );
}
