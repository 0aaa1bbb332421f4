import type { Kysely } from 'kysely';
import { DbKey } from '../../database/keys.js';
import type { Database } from '../../database/types.js';

/** A client's logout settings (RP-Initiated Logout §3.1, Back-Channel Logout §2.2). */
export interface LogoutSettings {
  postLogoutRedirectUris: string[];
  backchannelLogoutUri: string | null;
  backchannelLogoutSessionRequired: boolean;
}

export const NO_LOGOUT: LogoutSettings = {
  postLogoutRedirectUris: [],
  backchannelLogoutUri: null,
  backchannelLogoutSessionRequired: false,
};

/** A client that got an ID token in a login session, for its back-channel logout. */
export interface LoggedInClient {
  clientId: string;
  userId: number;
}

/**
 * The logout side of clients: their logout URIs, and which clients got an authorization in which
 * login session (`sid`), so a logout can tell each of them once.
 */
export class ClientLogout {
  static inject = [DbKey] as const;

  constructor(private readonly db: Kysely<Database>) {}

  async settings(clientId: string): Promise<LogoutSettings> {
    const row = await this.db
      .selectFrom('oauth_client_logout')
      .selectAll()
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    if (!row) return NO_LOGOUT;
    return {
      postLogoutRedirectUris: JSON.parse(row.post_logout_redirect_uris) as string[],
      backchannelLogoutUri: row.backchannel_logout_uri,
      backchannelLogoutSessionRequired: row.backchannel_logout_session_required === 1,
    };
  }

  /** Replaces the client's settings (registration, its update, or the application's own code). */
  async save(clientId: string, settings: LogoutSettings): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('oauth_client_logout').where('client_id', '=', clientId).execute();
      await trx
        .insertInto('oauth_client_logout')
        .values({
          client_id: clientId,
          post_logout_redirect_uris: JSON.stringify(settings.postLogoutRedirectUris),
          backchannel_logout_uri: settings.backchannelLogoutUri,
          backchannel_logout_session_required: settings.backchannelLogoutSessionRequired ? 1 : 0,
        })
        .execute();
    });
  }

  /**
   * Records that `clientId` was authorized in login session `sid` (one row per pair; `created_at`
   * is the latest authorization, so the purge keeps a row in use).
   */
  async recordSession(sid: string, clientId: string, userId: number, at: string): Promise<void> {
    await this.db
      .insertInto('oauth_logout_sessions')
      .values({ sid, client_id: clientId, user_id: userId, created_at: at })
      .onConflict((oc) => oc.columns(['sid', 'client_id']).doUpdateSet({ created_at: at }))
      .execute();
  }

  /** The clients authorized in `sid`, removed: a second logout of the same session finds none. */
  async takeSession(sid: string): Promise<LoggedInClient[]> {
    const rows = await this.db
      .deleteFrom('oauth_logout_sessions')
      .where('sid', '=', sid)
      .returning(['client_id', 'user_id'])
      .execute();
    return rows.map((row) => ({ clientId: row.client_id, userId: row.user_id }));
  }
}
