import type { Application } from '../kernel/application.js';
import { Clients, type CreatedClient } from './clients/clients.js';
import { installKeys, keyPaths } from './keys/key-files.js';
import { OAuthStoreKey } from './stores/contracts.js';

export interface InstallResult {
  /** Where the keys come from, and whether this run wrote them. */
  keys: { source: 'environment' | { privateKey: string; publicKey: string }; written: boolean };
  /** Clients created by this run (a kept one is not repeated: its secret is not known). */
  personalAccessClient: CreatedClient | undefined;
  passwordClient: CreatedClient | undefined;
}

/**
 * Passport's `install`: the signing keys, one personal access client and one password grant
 * client. Run again, it keeps what exists unless `force`. Needs the OAuth services bound and the
 * database migrated. `passwordClient: false` skips that client (its secret would be shown only once).
 */
export async function installOAuth(
  app: Application,
  options: { force?: boolean; passwordClient?: boolean } = {},
): Promise<InstallResult> {
  const { config } = app;
  const force = Boolean(options.force);
  const fromEnv = Boolean(config.oauth.privateKey && config.oauth.publicKey);
  const written = fromEnv ? false : installKeys(config.storagePath, config.oauth.signingAlgorithm, { force });
  const clients = app.container.make(Clients);
  const store = app.container.make(OAuthStoreKey);

  const personalAccessClient =
    !force && (await store.clients.personalAccessClient())
      ? undefined
      : await clients.create({
          name: `${config.app.name} Personal Access Client`,
          redirect: config.app.url,
          personalAccess: true,
        });

  const hasPasswordClient = await app.db
    .selectFrom('oauth_clients')
    .select('id')
    .where('password_client', '=', 1)
    .where('revoked', '=', 0)
    .executeTakeFirst();
  const passwordClient =
    options.passwordClient === false || (!force && hasPasswordClient)
      ? undefined
      : await clients.create({
          name: `${config.app.name} Password Grant Client`,
          redirect: config.app.url,
          password: true,
        });

  return {
    keys: { source: fromEnv ? 'environment' : keyPaths(config.storagePath), written },
    personalAccessClient,
    passwordClient,
  };
}
