import type { Kysely } from 'kysely';
import { LruCache } from '../../core/lru.js';
import type { Database } from '../../database/types.js';
import type { VerifiedToken } from '../../oauth/index.js';
import type { CredentialKind } from './tables.js';

/**
 * Which kind of credential a request's token is. An API key and the `app_token` cookie say so
 * themselves; an access token is a personal token when its client is a personal access client,
 * looked up once per client id (a client never changes kind) and remembered.
 */
export class CredentialKinds {
  readonly #personal = new LruCache<string, boolean | Promise<boolean>>(10_000);

  constructor(private readonly db: Kysely<Database>) {}

  of(token: VerifiedToken | undefined): CredentialKind | Promise<CredentialKind> {
    if (token === undefined || token.id === 'transient') return 'cookie';
    if (token.current.kind === 'api_key') return 'api_key';
    const personal = this.#personal.get(token.clientId) ?? this.#lookUp(token.clientId);
    if (typeof personal === 'boolean') return personal ? 'personal' : 'oauth';
    return personal.then((p) => (p ? 'personal' : 'oauth'));
  }

  #lookUp(clientId: string): Promise<boolean> {
    const found = this.db
      .selectFrom('oauth_clients')
      .select('personal_access_client')
      .where('id', '=', clientId)
      .executeTakeFirst()
      .then((row) => {
        const personal = Number(row?.personal_access_client ?? 0) === 1;
        this.#personal.set(clientId, personal);
        return personal;
      })
      .catch((err: unknown) => {
        this.#personal.delete(clientId);
        throw err;
      });
    this.#personal.set(clientId, found);
    return found;
  }
}
