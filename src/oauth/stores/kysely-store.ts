import type { Kysely } from 'kysely';
import { DbKey } from '../../database/keys.js';
import type { Database } from '../../database/types.js';
import type {
  AccessTokenStore,
  AuthCodeStore,
  ClientStore,
  DeviceCodeStore,
  OAuthStore,
  PurgeCounts,
  PurgeOptions,
  RefreshTokenStore,
  RegistrationStore,
} from './contracts.js';
import { KyselyAccessTokenStore } from './kysely-access-tokens.js';
import { KyselyClientStore } from './kysely-clients.js';
import { KyselyAuthCodeStore } from './kysely-codes.js';
import { KyselyDeviceCodeStore } from './kysely-device-codes.js';
import { KyselyRefreshTokenStore } from './kysely-refresh-tokens.js';
import { KyselyRegistrationStore } from './kysely-registrations.js';
import { purgeInBatches } from './purge.js';

/** The OAuth stores on Kysely (SQLite or PostgreSQL). */
export class KyselyOAuthStore implements OAuthStore {
  static inject = [DbKey] as const;
  readonly clients: ClientStore;
  readonly accessTokens: AccessTokenStore;
  readonly refreshTokens: RefreshTokenStore;
  readonly authCodes: AuthCodeStore;
  readonly deviceCodes: DeviceCodeStore;
  readonly registrations: RegistrationStore;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly inTransaction = false,
  ) {
    this.clients = new KyselyClientStore(db);
    this.accessTokens = new KyselyAccessTokenStore(db);
    this.refreshTokens = new KyselyRefreshTokenStore(db);
    this.authCodes = new KyselyAuthCodeStore(db);
    this.deviceCodes = new KyselyDeviceCodeStore(db);
    this.registrations = new KyselyRegistrationStore(db);
  }

  transaction<T>(work: (store: OAuthStore) => Promise<T>): Promise<T> {
    if (this.inTransaction) return work(this);
    return this.db.transaction().execute((trx) => work(new KyselyOAuthStore(trx, true)));
  }

  /** In short batches: see `purgeInBatches`. */
  purge(options: PurgeOptions): Promise<PurgeCounts> {
    return purgeInBatches(this.db, options);
  }
}
