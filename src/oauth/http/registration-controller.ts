import type { Context } from 'hono';
import type { TollgateConfig } from '../../core/config.js';
import { ConfigKey } from '../../core/keys.js';
import { notFound } from '../../http/error-handler.js';
import { OAuthError } from '../errors.js';
import { type ClientMetadata, checkClientMetadata } from '../registration/client-metadata.js';
import { ClientRegistrations, registrationResponse } from '../registration/client-registrations.js';
import { Scopes } from '../scopes.js';

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

/**
 * `POST /oauth/register` (RFC 7591) under `oauth.registration`, and `GET`, `PUT`, `DELETE
 * /oauth/register/{client_id}` (RFC 7592) with the registration access token. Registered clients
 * keep managing their registration if the policy is closed later.
 */
export class RegistrationController {
  static inject = [ClientRegistrations, Scopes, ConfigKey] as const;

  constructor(
    private readonly registrations: ClientRegistrations,
    private readonly scopes: Scopes,
    private readonly config: TollgateConfig,
  ) {}

  async store(c: Context): Promise<Response> {
    const policy = this.config.oauth.registration;
    if (policy === 'closed') return notFound(c);
    if (policy === 'token') await this.registrations.checkInitialToken(c.req.header('authorization'));
    const metadata = await this.#metadata(c);
    const { plainSecret, registrationToken, ...registered } = await this.registrations.register(metadata);
    const uri = this.registrations.clientUri(registered.client.id);
    return c.json(registrationResponse(registered, uri, { plainSecret, registrationToken }), 201, NO_STORE);
  }

  async show(clientId: string, c: Context): Promise<Response> {
    const registered = await this.#authenticated(clientId, c);
    return c.json(registrationResponse(registered, this.registrations.clientUri(clientId)), 200, NO_STORE);
  }

  async update(clientId: string, c: Context): Promise<Response> {
    const registered = await this.#authenticated(clientId, c);
    const body = await readJson(c);
    // RFC 7592 §2.2: the request names the client it replaces.
    if ((body as { client_id?: unknown }).client_id !== registered.client.id) {
      throw OAuthError.invalidClientMetadata('The client_id must be the registered client id.');
    }
    const updated = await this.registrations.update(registered, this.#check(body));
    return c.json(registrationResponse(updated, this.registrations.clientUri(clientId)), 200, NO_STORE);
  }

  async destroy(clientId: string, c: Context): Promise<Response> {
    await this.registrations.delete(await this.#authenticated(clientId, c));
    return c.body(null, 204, NO_STORE);
  }

  #authenticated(clientId: string, c: Context) {
    return this.registrations.authenticate(clientId, c.req.header('authorization'));
  }

  async #metadata(c: Context): Promise<ClientMetadata> {
    return this.#check(await readJson(c));
  }

  #check(body: unknown): ClientMetadata {
    return checkClientMetadata(body, {
      scopes: this.scopes,
      maxRedirects: this.config.oauth.maxRedirectsPerClient,
      signingAlgorithm: this.config.oauth.signingAlgorithm,
    });
  }
}

/** The request's JSON body; anything else is `invalid_client_metadata` (RFC 7591 §3.2.2). */
async function readJson(c: Context): Promise<unknown> {
  try {
    return JSON.parse(await c.req.text());
  } catch {
    throw OAuthError.invalidClientMetadata('The request body must be a JSON object.');
  }
}
