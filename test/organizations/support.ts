import { AppUser } from '../../app/user.js';
import { accountsProvider } from '../../src/accounts/provider.js';
import { authProvider } from '../../src/auth/provider.js';
import { UserModelKey, Users } from '../../src/auth/users.js';
import type { DeepPartial, TollgateConfig } from '../../src/core/config.js';
import type { Application } from '../../src/kernel/application.js';
import { mailProvider } from '../../src/mail/provider.js';
import { Clients, currentAccessToken, installKeys, oauthProvider } from '../../src/oauth/index.js';
import { observabilityProvider } from '../../src/observability/provider.js';
import { type OrganizationsOptions, organizationsProvider } from '../../src/organizations/provider.js';
import { Browser, tokenIn } from '../auth/browser.js';
import { createTestApp, type TestApp } from '../support/app.js';
import type { Engine } from '../support/engines.js';
import { type Mailbox, startMailbox } from '../support/mailbox.js';

export const PASSWORD = 'correct horse battery';

export interface OrganizationsTestApp extends TestApp {
  mailbox: Mailbox;
  /** Creates a user and returns a browser signed in as them. */
  member(email: string): Promise<Member>;
}

/** A signed-in browser that posts forms with its CSRF token, as JSON unless told otherwise. */
export class Member extends Browser {
  token = '';
  constructor(
    t: TestApp,
    readonly id: number,
    readonly email: string,
  ) {
    super(t);
  }

  /** A form post that asks for JSON, so the answer's status is the operation's. */
  send(path: string, fields: Record<string, string> = {}, json = true): Promise<Response> {
    return this.post(path, { _token: this.token, ...fields }, json ? { accept: 'application/json' } : {});
  }

  /** A JSON API call with the session's CSRF token. */
  json(method: string, path: string, body?: unknown): Promise<Response> {
    return this.request(path, {
      method,
      headers: {
        accept: 'application/json',
        'x-csrf-token': this.token,
        origin: 'http://localhost',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }
}

/** Auth, mail (to a real SMTP server), the audit log and organizations on a fresh database. */
export async function organizationsApp(
  options: OrganizationsOptions & {
    setup?: (app: Application) => void;
    /** Default: the process's one engine (files that do not loop ENGINES). */
    engine?: Engine;
    /** Configuration beside the mailbox's. */
    config?: DeepPartial<TollgateConfig>;
    accounts?: boolean;
    /** Adds oauth (keys installed, a personal access client) and `GET /probe/credential` behind `auth:api`. */
    oauth?: boolean;
  } = {},
): Promise<OrganizationsTestApp> {
  const mailbox = await startMailbox();
  const t = await createTestApp({
    engine: options.engine,
    config: { ...options.config, mail: { url: mailbox.url, worker: { pollMs: 100 } } },
    providers: [
      observabilityProvider(),
      authProvider(),
      mailProvider(),
      ...(options.oauth ? [oauthProvider()] : []),
      ...(options.accounts ? [accountsProvider()] : []),
      organizationsProvider(options),
    ],
    setup: (app) => {
      if (options.oauth) {
        app.container.instance(UserModelKey, AppUser);
        installKeys(app.config.storagePath, app.config.oauth.signingAlgorithm);
        app.router
          .get('/probe/credential', (c) => {
            const token = currentAccessToken(c)!;
            return c.json({ user: c.get('user')!.id, organization: token.organizationId });
          })
          .middleware('api', 'auth:api');
      }
      options.setup?.(app);
    },
  });
  if (options.oauth)
    await t.app.container
      .make(Clients)
      .create({ name: 'Personal Access Client', redirect: 'http://localhost', personalAccess: true });
  const member = async (email: string) => {
    const user = await t.app.container
      .make(Users)
      .create({ name: email.split('@')[0]!, email, password: PASSWORD });
    const browser = new Member(t, user.id, email);
    const res = await browser.submit('/login', { email, password: PASSWORD });
    if (res.status !== 302) throw new Error(`sign-in of ${email} answered ${res.status}`);
    browser.token = tokenIn(await (await browser.get('/organizations')).text());
    return browser;
  };
  return {
    ...t,
    mailbox,
    member,
    close: async () => {
      await t.close();
      await mailbox.close();
    },
  };
}
