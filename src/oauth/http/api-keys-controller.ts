import type { Context } from 'hono';
import { jsonBody } from '../../http/json-body.js';
import { apiKeyInput } from '../api-keys/api-key-input.js';
import { ApiKeys, serializeApiKey } from '../api-keys/api-keys.js';
import { Scopes } from '../scopes.js';
import { notFound } from './clients-controller.js';
import { organizationScope } from './organization-scope.js';

/**
 * `/api-keys`: the signed-in user's API keys (session + CSRF, like the personal access token API);
 * with `?organization_id=`, the organization's keys (as the member's role allows).
 */
export class ApiKeysController {
  static inject = [ApiKeys, Scopes] as const;

  constructor(
    private readonly keys: ApiKeys,
    private readonly scopes: Scopes,
  ) {}

  async index(c: Context): Promise<Response> {
    const userId = c.get('user')!.id;
    const organizationId = organizationScope(c);
    const list =
      organizationId === undefined
        ? await this.keys.forUser(userId)
        : await this.keys.forOrganization(userId, organizationId);
    return c.json(list.map(serializeApiKey));
  }

  /** 201 with the key itself (`key`), shown this once; lists show only its prefix and last four characters. */
  async store(c: Context): Promise<Response> {
    const organizationId = organizationScope(c);
    const input = apiKeyInput(this.scopes, await jsonBody(c));
    const { plainKey, key } = await this.keys.create(c.get('user')!.id, { ...input, organizationId });
    return c.json({ key: plainKey, api_key: serializeApiKey(key) }, 201, { 'Cache-Control': 'no-store' });
  }

  async destroy(keyId: string, c: Context): Promise<Response> {
    const userId = c.get('user')!.id;
    const organizationId = organizationScope(c);
    const key =
      organizationId === undefined
        ? await this.keys.findForUser(keyId, userId)
        : await this.keys.findForOrganization(keyId, userId, organizationId);
    // Of two revocations at once, the one that did not revoke it answers as for a revoked key.
    if (!key || !(await this.keys.revoke(key))) throw notFound();
    return c.body(null, 204);
  }
}
