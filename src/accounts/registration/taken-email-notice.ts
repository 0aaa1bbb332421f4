import { createHash } from 'node:crypto';
import type { RegistrationWithTakenEmail } from '../../auth/events.js';
import type { Users } from '../../auth/users.js';
import type { Mailer } from '../../mail/mailer.js';
import type { RateLimit } from '../../rate-limits/rate-limit.js';
import { takenEmailMail } from './taken-email-mail.js';

/** Copy of the sign-up page's answer when this module mails a link: the same for new and taken addresses. */
export const REGISTRATION_MAILED =
  'Thank you. Check your mail: the message we sent to this address lets you sign in.';

/**
 * Tells an address's owner that someone tried to sign up with it, at most a few times an hour per
 * address (sign-ups from many networks must not flood an inbox).
 */
export function takenEmailNotice(users: Users, mailer: Mailer, limit: RateLimit) {
  return async ({ email }: RegistrationWithTakenEmail): Promise<void> => {
    const key = createHash('sha256').update(email).digest('hex');
    if (!(await limit.consume(key)).allowed) return;
    const user = await users.findByEmail(email);
    if (!user) return;
    await mailer.send(takenEmailMail, user.email, {
      name: user.name,
      loginLink: mailer.context.url('/login'),
      resetLink: mailer.context.url('/forgot-password'),
    });
  };
}
