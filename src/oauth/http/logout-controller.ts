import type { Context } from 'hono';
import { logout, requireSession } from '../../auth/context.js';
import type { TollgateConfig } from '../../core/config.js';
import { ConfigKey } from '../../core/keys.js';
import { renderErrorPage } from '../../http/error-handler.js';
import { OAuthError } from '../errors.js';
import { issuerOf } from '../jwt/access-token-signer.js';
import { SigningKeys } from '../keys/signing-keys.js';
import { BackchannelLogout } from '../logout/backchannel-logout.js';
import { ClientLogout } from '../logout/client-logout.js';
import { type IdTokenHint, verifyIdTokenHint } from '../logout/id-token-hint.js';
import { existingSid } from '../logout/session-sid.js';
import { type OAuthStore, OAuthStoreKey } from '../stores/contracts.js';
import { authorizationRedirect } from './authorization-errors.js';
import { confirmLogoutPage, type LogoutFields, loggedOutPage } from './logout-views.js';
import { readForm, readQuery } from './respond.js';

/** A logout request that checked out: who it names, and where the user goes afterwards. */
interface LogoutRequest {
  hint: IdTokenHint | undefined;
  /** The registered `post_logout_redirect_uri` with `state` added, or null: the logged-out page. */
  redirect: string | null;
  /** What the confirmation form posts back. */
  fields: LogoutFields;
}

const refuse = (description: string) => OAuthError.invalidRequest(description);

/**
 * `GET` and `POST /oauth/logout`, the `end_session_endpoint` (OpenID Connect RP-Initiated Logout
 * 1.0): ends the user's session at this server — after a confirmation page unless a valid
 * `id_token_hint` names the logged-in user — tells the clients authorized in it (back-channel
 * logout), and sends the user to the client's registered `post_logout_redirect_uri` with `state`.
 * A hint this server did not issue, or a redirect URI that is not registered exactly, is an error
 * page: never a redirect.
 */
export class LogoutController {
  static inject = [SigningKeys, ClientLogout, BackchannelLogout, OAuthStoreKey, ConfigKey] as const;
  readonly #issuer: string;

  constructor(
    private readonly keys: SigningKeys,
    private readonly clients: ClientLogout,
    private readonly backchannel: BackchannelLogout,
    private readonly store: OAuthStore,
    config: TollgateConfig,
  ) {
    this.#issuer = issuerOf(config);
  }

  async endSession(c: Context): Promise<Response> {
    let request: LogoutRequest;
    let params: Record<string, string>;
    try {
      params = c.req.method === 'POST' ? await readForm(c) : readQuery(c);
      request = await this.#check(params);
    } catch (err) {
      if (!(err instanceof OAuthError)) throw err;
      return c.html(renderErrorPage(c, 400, err.description), 400);
    }
    const session = requireSession(c);
    const userId = session.userId;
    // The confirmation form carries the session's CSRF token (checked by the `web` group).
    const confirmed = c.req.method === 'POST' && params._token !== undefined;
    const vouched = request.hint !== undefined && userId !== null && request.hint.sub === String(userId);
    if (userId !== null && !confirmed && !vouched) {
      return confirmLogoutPage(c, session.csrfToken, request.fields);
    }
    if (userId !== null) {
      const sid = existingSid(session);
      logout(c);
      if (sid !== null) this.backchannel.sessionEnded(sid);
    }
    return request.redirect ? authorizationRedirect(c, request.redirect) : loggedOutPage(c);
  }

  async #check(params: Record<string, string>): Promise<LogoutRequest> {
    const hint = params.id_token_hint
      ? await verifyIdTokenHint(params.id_token_hint, this.keys, this.#issuer)
      : undefined;
    if (params.id_token_hint && !hint)
      throw refuse('The id_token_hint is not an ID token this server issued.');
    if (params.client_id && hint && params.client_id !== hint.clientId) {
      throw refuse('The client_id is not the audience of the id_token_hint.');
    }
    const clientId = params.client_id ?? hint?.clientId;
    const fields: LogoutFields = {};
    for (const name of ['client_id', 'post_logout_redirect_uri', 'state'] as const) {
      const value = name === 'client_id' ? clientId : params[name];
      if (value !== undefined) fields[name] = value;
    }
    const uri = params.post_logout_redirect_uri;
    if (uri === undefined) return { hint, redirect: null, fields };
    if (clientId === undefined)
      throw refuse('A post_logout_redirect_uri needs an id_token_hint or a client_id.');
    const client = await this.store.clients.find(clientId);
    const registered =
      client && !client.revoked ? (await this.clients.settings(clientId)).postLogoutRedirectUris : [];
    // §3.1: exactly as registered — no added query, no other path.
    if (!registered.includes(uri))
      throw refuse('The post_logout_redirect_uri is not registered for this client.');
    const redirect = new URL(uri);
    if (params.state !== undefined) redirect.searchParams.set('state', params.state);
    return { hint, redirect: redirect.toString(), fields };
  }
}
