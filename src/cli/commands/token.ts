import type { Command } from 'commander';
import { Users } from '../../auth/users.js';
import { ValidationError } from '../../core/errors.js';
import { OAuthError, PersonalAccessTokens } from '../../oauth/index.js';
import { PersonalAccessClientMissing } from '../../oauth/personal/personal-access-tokens.js';
import { bindOAuthServices } from '../../oauth/provider.js';
import { OAuthStoreKey } from '../../oauth/stores/contracts.js';
import { CliError, withApplication } from '../context.js';

interface TokenCreateOptions {
  user: string;
  name: string;
  scopes?: string;
  json?: boolean;
}

/** Splits `--scopes a,b` (commas or spaces) into scope names; empty means no scopes. */
export function scopeList(value: string | undefined): string[] {
  return (value ?? '').split(/[\s,]+/).filter(Boolean);
}

export function register(program: Command): void {
  program
    .command('token:create')
    .description('Issue a personal access token for a user and print it (shown once).')
    .requiredOption('--user <email>', "the user's e-mail address")
    .requiredOption('--name <name>', 'a name for the token, e.g. the machine or script using it')
    .option('--scopes <list>', 'comma-separated scope names (default: none)')
    .option('--json', 'machine-readable output')
    .action((options: TokenCreateOptions) =>
      withApplication(async (app) => {
        const name = options.name.trim();
        if (!name || name.length > 255) throw new CliError('--name must be 1 to 255 characters.');
        if (!app.container.has(OAuthStoreKey)) bindOAuthServices(app.container);
        await app.migrate();
        const user = await app.container.make(Users).findByEmail(options.user);
        if (!user) throw new CliError(`No user with the e-mail ${options.user}.`);
        let created: Awaited<ReturnType<PersonalAccessTokens['create']>>;
        try {
          created = await app.container
            .make(PersonalAccessTokens)
            .create(user.id, name, scopeList(options.scopes));
        } catch (err) {
          // The description is a fixed text; the detail names what was refused (the admin's own input).
          if (err instanceof OAuthError)
            throw new CliError(err.detail ? `${err.description} (${err.detail})` : err.description);
          if (err instanceof PersonalAccessClientMissing) throw new CliError(err.message);
          // A scope the user's plan does not allow (API plans).
          if (err instanceof ValidationError) throw new CliError(Object.values(err.errors).flat().join(' '));
          throw err;
        }
        const { accessToken, token } = created;
        if (options.json) {
          console.log(JSON.stringify({ accessToken, id: token.id, name: token.name, scopes: token.scopes }));
          return;
        }
        console.log(`Personal access token "${name}" created for ${user.email} (id ${token.id}).`);
        console.log(`Scopes: ${token.scopes.length ? token.scopes.join(' ') : '(none)'}`);
        console.log('Copy it now, it is not shown again:');
        console.log(accessToken);
      }),
    );
}
