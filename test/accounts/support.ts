import { accountsProvider } from '../../src/accounts/provider.js';
import { authProvider } from '../../src/auth/provider.js';
import type { DeepPartial, TollgateConfig } from '../../src/core/config.js';
import type { Logger } from '../../src/core/logger.js';
import type { Application } from '../../src/kernel/application.js';
import { mailProvider } from '../../src/mail/provider.js';
import { installKeys, oauthProvider } from '../../src/oauth/index.js';
import { createTestApp, type TestApp } from '../support/app.js';
import type { Engine } from '../support/engines.js';
import { type Mailbox, startMailbox } from '../support/mailbox.js';

export interface AccountsTestApp extends TestApp {
  mailbox: Mailbox;
}

/**
 * The auth, mail, OAuth (keys installed) and accounts providers on a fresh database, mail sent to a
 * real SMTP server in process.
 */
export async function accountsApp(options: {
  /** The database engine (see test/support/engines.ts). */
  engine: Engine;
  config?: DeepPartial<TollgateConfig>;
  setup?: (app: Application) => void;
  logger?: Logger;
}): Promise<AccountsTestApp> {
  const mailbox = await startMailbox();
  const t = await createTestApp({
    engine: options.engine,
    // The worker polls often: mail queued in a transaction (a reset's) leaves at the next poll.
    config: { ...options.config, mail: { url: mailbox.url, worker: { pollMs: 100 } } },
    providers: [authProvider(), mailProvider(), oauthProvider(), accountsProvider()],
    ...(options.logger ? { logger: options.logger } : {}),
    setup: (app) => {
      installKeys(app.config.storagePath, app.config.oauth.signingAlgorithm);
      options.setup?.(app);
    },
  });
  return {
    ...t,
    mailbox,
    close: async () => {
      await t.close();
      await mailbox.close();
    },
  };
}
