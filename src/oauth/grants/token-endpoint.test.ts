import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, type OAuthTestApp, oauthApp, tokenRequest } from '../../../test/oauth/support.js';
import { ENGINES } from '../../../test/support/engines.js';
import { TokenRevoker } from '../tokens/token-revoker.js';
import { tokenPipeline } from './token-steps.js';

describe.each(ENGINES)("ClientAuthenticator: the token endpoint's client cache (%s)", (engine) => {
  let t: OAuthTestApp;
  beforeAll(async () => {
    t = await oauthApp({ engine });
  });
  afterAll(async () => t.stop());

  const issue = (authorization: string, fields: Record<string, string> = {}) =>
    tokenRequest(t, { grant_type: 'client_credentials', ...fields }, { authorization });

  it('the same verified Basic credentials are accepted again; any other secret is not', async () => {
    const { client, plainSecret } = await t.createClient({});
    const good = basic(client.id, plainSecret!);
    expect((await issue(good)).status).toBe(200);
    expect((await issue(good)).status).toBe(200);
    const bad = await issue(basic(client.id, `${plainSecret}x`));
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ error: 'invalid_client' });
    // The cached header does not bypass RFC 6749 §2.3.1's one-method rule.
    const both = await issue(good, { client_secret: plainSecret! });
    expect(both.status).toBe(400);
    expect((await issue(good)).status).toBe(200);
  });

  it('a revoked client is refused at once, though its credentials were just verified', async () => {
    const { client, plainSecret } = await t.createClient({});
    const good = basic(client.id, plainSecret!);
    expect((await issue(good)).status).toBe(200);
    await t.app.container.make(TokenRevoker).revokeClient(client.id);
    const refused = await issue(good);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: 'invalid_client' });
  });
});

describe('the token endpoint pipeline', () => {
  it('reads as RFC 6749 §3.2 and §5.2 do: form, grant type, client, RFC 9449 proof, allowed grant and scopes, RFC 8707 resource, parameters, grant', () => {
    expect(tokenPipeline.map((step) => step.name)).toEqual([
      'readForm',
      'supportedGrantType',
      'authenticateClient',
      'dpopProof',
      'allowedGrantType',
      'allowedScopes',
      'requestedResource',
      'grantParameters',
      'runGrant',
    ]);
  });
});
