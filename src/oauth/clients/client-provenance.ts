import { Users } from '../../auth/users.js';
import { documentHost } from '../cimd/client-id-url.js';
import type { ClientRecord } from '../records.js';
import { type OAuthStore, OAuthStoreKey } from '../stores/contracts.js';

/**
 * Who put a client on this server: the operator (CLI or code), a user of the service (from the
 * dashboard or the JSON API), or the client itself — by dynamic registration (RFC 7591) or by its
 * metadata document. A client that registered itself is unverified: nobody the server knows
 * vouches for its name or its redirect URIs (RFC 9700 §4.11.2).
 */
export type ClientProvenance =
  | { registeredBy: 'operator' }
  | { registeredBy: 'user'; owner: string }
  | { registeredBy: 'itself'; documentHost?: string };

export class ClientProvenances {
  static inject = [OAuthStoreKey, Users] as const;

  constructor(
    private readonly store: OAuthStore,
    private readonly users: Users,
  ) {}

  async of(client: Pick<ClientRecord, 'id' | 'userId'>): Promise<ClientProvenance> {
    const host = documentHost(client.id);
    if (host) return { registeredBy: 'itself', documentHost: host };
    if (await registeredItself(this.store, client.id)) return { registeredBy: 'itself' };
    if (client.userId === null) return { registeredBy: 'operator' };
    const owner = await this.users.find(client.userId);
    return { registeredBy: 'user', owner: owner?.name ?? 'a deleted account' };
  }
}

/** Whether the client registered itself (by its metadata document or dynamic registration). */
export async function registeredItself(store: Pick<OAuthStore, 'registrations'>, clientId: string) {
  if (documentHost(clientId)) return true;
  return (await store.registrations.findClientRegistration(clientId)) !== undefined;
}
