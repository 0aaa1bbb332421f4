import type { Command } from 'commander';
import { z } from 'zod';
import { PasswordReset } from '../../accounts/password-reset/password-reset.js';
import { EmailVerification } from '../../accounts/verification/email-verification.js';
import { Registered } from '../../auth/events.js';
import { Users } from '../../auth/users.js';
import { ValidationError } from '../../core/errors.js';
import { AuditLog } from '../../observability/audit/audit-log.js';
import { CliError, withApplication } from '../context.js';

const input = z.object({
  email: z.email('--email must be an e-mail address.'),
  password: z.string().min(8, '--password must be at least 8 characters.'),
  name: z.string().min(1).max(255),
});

export function register(program: Command): void {
  program
    .command('user:create')
    .description('Create a user who can log in.')
    .requiredOption('--email <email>', 'e-mail address (the login)')
    .requiredOption('--password <password>', 'password, at least 8 characters')
    .option('--name <name>', 'display name (default: the part of the e-mail before @)')
    .option('--verified', 'the address counts as verified (no verification mail)')
    .action((options: { email: string; password: string; name?: string; verified?: boolean }) =>
      withApplication(async (app) => {
        const parsed = input.safeParse({ ...options, name: options.name ?? options.email.split('@')[0] });
        if (!parsed.success) throw new CliError(parsed.error.issues.map((i) => i.message).join('\n'));
        await app.migrate();
        try {
          const user = await app.container.construct(Users).create(parsed.data);
          const verification = app.container.has(EmailVerification)
            ? app.container.make(EmailVerification)
            : undefined;
          if (options.verified) {
            // No `Registered`: its listeners mail a verification link. The audit row it would make is made here.
            await verification?.markVerified(user);
            if (app.container.has(AuditLog))
              app.container.make(AuditLog).record({
                kind: 'account.registered',
                userId: user.id,
                subject: `user:${user.id}`,
                details: { verified: true },
              });
          } else await app.events.dispatch(new Registered(user));
          const mailed = verification && !options.verified ? ' A verification link is on its way.' : '';
          console.log(`Created user ${user.id} <${user.email}>.${mailed}`);
        } catch (err) {
          if (err instanceof ValidationError) throw new CliError(Object.values(err.errors).flat().join('\n'));
          throw err;
        }
      }),
    );

  program
    .command('user:reset-link')
    .description('Print a password reset link for a user (for an operator to pass on); it works once.')
    .requiredOption('--email <email>', "the user's e-mail address")
    .action((options: { email: string }) =>
      withApplication(async (app) => {
        if (!app.container.has(PasswordReset))
          throw new CliError('The application does not register accountsProvider().');
        await app.migrate();
        const issued = await app.container.make(PasswordReset).link(options.email.trim().toLowerCase());
        if (!issued) throw new CliError(`No user with the e-mail ${options.email}.`);
        const minutes = app.config.accounts.passwordReset.expiresMinutes;
        console.log(`${issued.link}\n(works once, for ${minutes} minutes)`);
      }),
    );
}
