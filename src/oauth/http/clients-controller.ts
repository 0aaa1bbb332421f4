import type { Context } from 'hono';
import type { TollgateConfig } from '../../core/config.js';
import { HttpError, ValidationError } from '../../core/errors.js';
import { ConfigKey } from '../../core/keys.js';
import { Clients, type CreatedClient, knownGrantTypes, serializeClient } from '../clients/clients.js';
import { GrantRegistry } from '../grants/registry.js';
import { type ClientRecord, isPublicClient } from '../records.js';
import { Scopes } from '../scopes.js';
import { type ClientLimits, clientSchema, clientUpdateSchema } from './schemas.js';
import { jsonBody, validateBody } from './validate.js';

function notFound(): HttpError {
  return new HttpError(404, 'Not Found', { body: { message: 'Not Found' } });
}

/** `/oauth/clients`: the signed-in user's own clients (Passport's ClientController). */
export class ClientsController {
  static inject = [Clients, Scopes, GrantRegistry, ConfigKey] as const;
  readonly #limits: ClientLimits;
  readonly #maxClients: number;

  constructor(
    private readonly clients: Clients,
    scopes: Scopes,
    grants: GrantRegistry,
    config: TollgateConfig,
  ) {
    const { maxRedirectsPerClient, maxClientsPerUser } = config.oauth;
    this.#limits = { scopes, grantTypes: knownGrantTypes(grants), maxRedirects: maxRedirectsPerClient };
    this.#maxClients = maxClientsPerUser;
  }

  async index(c: Context): Promise<Response> {
    const list = await this.clients.forUser(c.get('user')!.id);
    return c.json(list.map((client) => serializeClient(client)));
  }

  /**
   * The response is the only time the plain secret is shown.
   */
  async store(c: Context): Promise<Response> {
    const { client, plainSecret } = await this.createForUser(c.get('user')!.id, await jsonBody(c));
    return c.json(serializeClient(client, plainSecret), 201, { 'Cache-Control': 'no-store' });
  }

  /**
   * A new client of `userId` from a request body (the JSON API's, or a form's fields); a 422
   * `ValidationError` with Laravel's messages otherwise. A user owns at most
   * `oauth.maxClientsPerUser` clients, also when creates are sent at once.
   */
  async createForUser(userId: number, body: unknown): Promise<CreatedClient> {
    const input = validateBody(clientSchema(this.#limits), body);
    const created = await this.clients.createForOwner(
      {
        name: input.name,
        redirect: input.redirect,
        confidential: input.confidential ?? true,
        allowedScopes: input.scopes ?? null,
        grantTypes: input.grant_types ?? null,
        userId,
      },
      this.#maxClients,
    );
    if (created === undefined) {
      const message = `You may have at most ${this.#maxClients} OAuth clients: delete one to create another.`;
      throw new ValidationError({ clients: [message] }, message);
    }
    return created;
  }

  async update(clientId: string, c: Context): Promise<Response> {
    const updated = await this.updateForUser(c.get('user')!.id, clientId, await jsonBody(c));
    if (!updated) throw notFound();
    return c.json(serializeClient(updated));
  }

  /**
   * Changes a client of `userId` from a request body (the JSON API's, or a form's fields):
   * undefined if the user has no such client, a 422 `ValidationError` for bad fields.
   */
  async updateForUser(userId: number, clientId: string, body: unknown): Promise<ClientRecord | undefined> {
    const client = await this.clients.findForUser(clientId, userId);
    if (!client) return undefined;
    const input = validateBody(clientUpdateSchema(this.#limits, isPublicClient(client)), body);
    return this.clients.update(client, {
      name: input.name,
      redirect: input.redirect,
      allowedScopes: input.scopes,
      grantTypes: input.grant_types,
    });
  }

  async destroy(clientId: string, c: Context): Promise<Response> {
    const client = await this.clients.findForUser(clientId, c.get('user')!.id);
    // Of two deletions at once, the one that did not delete it answers as for a deleted client.
    if (!client || !(await this.clients.delete(client))) throw notFound();
    return c.body(null, 204);
  }
}

export { notFound };
