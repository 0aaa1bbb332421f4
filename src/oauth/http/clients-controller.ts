import type { Context } from 'hono';
import type { TollgateConfig } from '../../core/config.js';
import { HttpError, ValidationError } from '../../core/errors.js';
import { ConfigKey } from '../../core/keys.js';
import { jsonBody } from '../../http/json-body.js';
import { Clients, type CreatedClient, knownGrantTypes, serializeClient } from '../clients/clients.js';
import { GrantRegistry } from '../grants/registry.js';
import { type ClientRecord, isPublicClient } from '../records.js';
import { Scopes } from '../scopes.js';
import { organizationScope } from './organization-scope.js';
import { type ClientLimits, clientSchema, clientUpdateSchema, secretRotationSchema } from './schemas.js';
import { validateBody } from './validate.js';

function notFound(): HttpError {
  return new HttpError(404, 'Not Found', { body: { message: 'Not Found' } });
}

/**
 * `/oauth/clients`: the signed-in user's own clients (Passport's ClientController); with
 * `?organization_id=`, the organization's clients (as the member's role allows).
 */
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
    const userId = c.get('user')!.id;
    const organizationId = organizationScope(c);
    const list =
      organizationId === undefined
        ? await this.clients.forUser(userId)
        : await this.clients.forOrganization(userId, organizationId);
    return c.json(list.map((client) => serializeClient(client)));
  }

  /**
   * The response is the only time the plain secret is shown.
   */
  async store(c: Context): Promise<Response> {
    const organizationId = organizationScope(c);
    const body = await jsonBody(c);
    const { client, plainSecret } = await this.createForUser(c.get('user')!.id, body, organizationId);
    return c.json(serializeClient(client, plainSecret), 201, { 'Cache-Control': 'no-store' });
  }

  /**
   * A new client of `userId` (or, given `organizationId`, of that organization, made by `userId`)
   * from a request body (the JSON API's, or a form's fields); a 422 `ValidationError` with
   * Laravel's messages otherwise. A user or an organization owns at most `oauth.maxClientsPerUser`
   * clients, also when creates are sent at once.
   */
  async createForUser(userId: number, body: unknown, organizationId?: number): Promise<CreatedClient> {
    const input = validateBody(clientSchema(this.#limits), body);
    const fields = {
      name: input.name,
      redirect: input.redirect,
      confidential: input.confidential ?? true,
      allowedScopes: input.scopes ?? null,
      grantTypes: input.grant_types ?? null,
    };
    const created =
      organizationId === undefined
        ? await this.clients.createForOwner({ ...fields, userId }, this.#maxClients)
        : await this.clients.createForOrganization(fields, userId, organizationId, this.#maxClients);
    if (created === undefined) {
      const whose = organizationId === undefined ? 'You' : 'An organization';
      const message = `${whose} may have at most ${this.#maxClients} OAuth clients: delete one to create another.`;
      throw new ValidationError({ clients: [message] }, message);
    }
    return created;
  }

  async update(clientId: string, c: Context): Promise<Response> {
    const organizationId = organizationScope(c);
    const body = await jsonBody(c);
    const updated = await this.updateForUser(c.get('user')!.id, clientId, body, organizationId);
    if (!updated) throw notFound();
    return c.json(serializeClient(updated));
  }

  /**
   * A live client `userId` may manage: their own, or with `organizationId` that organization's (as
   * their role allows: 404 for a non-member, 403 without `credentials.manage`).
   */
  findManaged(clientId: string, userId: number, organizationId?: number): Promise<ClientRecord | undefined> {
    return organizationId === undefined
      ? this.clients.findForUser(clientId, userId)
      : this.clients.findForOrganization(clientId, userId, organizationId);
  }

  /**
   * Changes a client `userId` manages (see `findManaged`) from a request body (the JSON API's, or a
   * form's fields): undefined if there is no such client, a 422 `ValidationError` for bad fields.
   */
  async updateForUser(
    userId: number,
    clientId: string,
    body: unknown,
    organizationId?: number,
  ): Promise<ClientRecord | undefined> {
    const client = await this.findManaged(clientId, userId, organizationId);
    if (!client) return undefined;
    const input = validateBody(clientUpdateSchema(this.#limits, isPublicClient(client)), body);
    return this.clients.update(
      client,
      {
        name: input.name,
        redirect: input.redirect,
        allowedScopes: input.scopes,
        grantTypes: input.grant_types,
      },
      userId,
    );
  }

  /**
   * `POST /oauth/clients/{client_id}/secret`: a new secret, shown in this response only; the old
   * one keeps working for `grace_seconds` (default 0). 409 when another rotation came first.
   */
  async rotateSecret(clientId: string, c: Context): Promise<Response> {
    const organizationId = organizationScope(c);
    const body = await jsonBody(c);
    const rotated = await this.rotateForUser(c.get('user')!.id, clientId, body, organizationId);
    return c.json(
      {
        ...serializeClient(rotated.client, rotated.secret),
        previous_secret_expires_at: rotated.previousUntil,
      },
      200,
      { 'Cache-Control': 'no-store' },
    );
  }

  /**
   * Rotates the secret of a client `userId` manages (see `findManaged`; the JSON API's body, or a
   * form's fields): 404 for no such client, 422 for a public one or a bad grace period, 409 when a
   * rotation raced it.
   */
  async rotateForUser(
    userId: number,
    clientId: string,
    body: unknown,
    organizationId?: number,
  ): Promise<{ client: ClientRecord; secret: string; previousUntil: string | null }> {
    const client = await this.findManaged(clientId, userId, organizationId);
    if (!client) throw notFound();
    const grace = validateBody(secretRotationSchema, body).grace_seconds ?? 0;
    if (isPublicClient(client)) {
      const message = 'A public client has no secret to rotate.';
      throw new ValidationError({ client: [message] }, message);
    }
    const secret = await this.clients.rotateSecret(client, grace, userId);
    if (secret === undefined) {
      const message = 'The secret was changed meanwhile (rotated again or deleted): reload and try again.';
      throw new HttpError(409, message, { body: { message } });
    }
    const rotated = await this.clients.find(client.id);
    return {
      client: rotated ?? client,
      secret,
      previousUntil: rotated?.previousSecret?.expiresAt ?? null,
    };
  }

  async destroy(clientId: string, c: Context): Promise<Response> {
    const userId = c.get('user')!.id;
    const client = await this.findManaged(clientId, userId, organizationScope(c));
    // Of two deletions at once, the one that did not delete it answers as for a deleted client.
    if (!client || !(await this.clients.delete(client, userId))) throw notFound();
    return c.body(null, 204);
  }
}

export { notFound };
