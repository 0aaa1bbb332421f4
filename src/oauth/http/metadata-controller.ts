import type { Context } from 'hono';
import type { TollgateConfig } from '../../core/config.js';
import { ConfigKey } from '../../core/keys.js';
import { GrantRegistry } from '../grants/registry.js';
import { SigningKeys } from '../keys/signing-keys.js';
import { authorizationServerMetadata } from '../metadata.js';
import { openIdConfiguration } from '../oidc/discovery.js';
import { Scopes } from '../scopes.js';

/**
 * `GET /.well-known/oauth-authorization-server` (RFC 8414), `GET /.well-known/openid-configuration`
 * (OpenID Connect Discovery) and `GET /oauth/jwks` (RFC 7517).
 */
export class MetadataController {
  static inject = [ConfigKey, GrantRegistry, Scopes, SigningKeys] as const;

  constructor(
    private readonly config: TollgateConfig,
    private readonly grants: GrantRegistry,
    private readonly scopes: Scopes,
    private readonly keys: SigningKeys,
  ) {}

  metadata(c: Context): Response {
    const scopes = this.scopes.all().map((s) => s.id);
    return c.json(authorizationServerMetadata(this.config, this.grants.grantTypes, scopes), 200, {
      'Cache-Control': 'public, max-age=3600',
    });
  }

  openIdConfiguration(c: Context): Response {
    const scopes = this.scopes.all().map((s) => s.id);
    return c.json(openIdConfiguration(this.config, this.grants.grantTypes, scopes), 200, {
      'Cache-Control': 'public, max-age=3600',
    });
  }

  async jwks(c: Context): Promise<Response> {
    return c.json(await this.keys.jwks(), 200, { 'Cache-Control': 'public, max-age=3600' });
  }
}
