import { createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Users } from '../../src/auth/users.js';
import { run } from '../../src/cli/main.js';
import { Clients, PersonalAccessTokens } from '../../src/oauth/index.js';
import { generateKeyPair } from '../../src/oauth/keys/key-files.js';
import { TokenRevoker } from '../../src/oauth/tokens/token-revoker.js';
import { type ReferenceServer, startReferenceServer } from '../browser/server.js';
import { ANY_ENGINE } from '../support/engines.js';
import { insecure } from './support.js';

/**
 * `tollgate keys:rotate` and `keys:prune` run as the CLI, against the database and storage of a
 * reference service that keeps serving meanwhile; tokens come from oauth4webapi and the API.
 */
describe(`signing key rotation through the CLI and HTTP`, { timeout: 60_000 }, () => {
  let server: ReferenceServer;
  let as: oauth.AuthorizationServer;
  let client: oauth.Client;
  let auth: oauth.ClientAuth;
  let userId: number;
  const output: string[] = [];

  beforeAll(async () => {
    server = await startReferenceServer({}, { engine: ANY_ENGINE });
    process.env.DATABASE_URL = server.app.config.database.url;
    process.env.STORAGE_PATH = server.app.config.storagePath;
    process.env.LOG_LEVEL = 'silent';
    as = {
      issuer: server.url,
      token_endpoint: `${server.url}/oauth/token`,
      introspection_endpoint: `${server.url}/oauth/introspect`,
      revocation_endpoint: `${server.url}/oauth/revoke`,
    };
    const created = await server.app.container.make(Clients).create({ name: 'Worker', redirect: server.url });
    client = { client_id: created.client.id };
    auth = oauth.ClientSecretBasic(created.plainSecret!);
    userId = (
      await server.app.container
        .make(Users)
        .create({ name: 'Ada', email: 'ada@example.com', password: 'x'.repeat(12) })
    ).id;
  });
  afterAll(async () => server?.stop());

  const tollgate = async (...argv: string[]) => {
    output.length = 0;
    const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      output.push(args.join(' '));
    });
    try {
      expect(await run(argv)).toBe(0);
      return JSON.parse(output.join('')) as Record<string, any>;
    } finally {
      spy.mockRestore();
    }
  };
  const clientCredentials = async () =>
    (
      await oauth.processClientCredentialsResponse(
        as,
        client,
        await oauth.clientCredentialsGrantRequest(as, client, auth, { scope: 'check-status' }, insecure),
      )
    ).access_token;
  const personal = async () =>
    (await server.app.container.make(PersonalAccessTokens).create(userId, 'script', ['check-status']))
      .accessToken;
  const jwks = async () => (await (await fetch(`${server.url}/oauth/jwks`)).json()) as JSONWebKeySet;
  const callApi = (token: string) =>
    fetch(`${server.url}/api/orders`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    });
  const introspect = async (token: string) =>
    oauth.processIntrospectionResponse(
      as,
      client,
      await oauth.introspectionRequest(as, client, auth, token, insecure),
    );

  let oldKid: string;
  let newKid: string;
  let beforeCc: string;
  let beforeUsed: string;
  let beforeUnused: string;

  it('before: one key in the JWKS; the tokens carry its kid', async () => {
    beforeCc = await clientCredentials();
    beforeUsed = await personal();
    beforeUnused = await personal();
    oldKid = decodeProtectedHeader(beforeCc).kid!;
    expect((await jwks()).keys.map((key) => key.kid)).toEqual([oldKid]);
    expect((await callApi(beforeUsed)).status).toBe(200);
  });

  it('keys:rotate: the JWKS lists the new key and the previous one; tokens signed before still work', async () => {
    const rotated = await tollgate('keys:rotate', '--json');
    newKid = rotated.kid;
    expect(rotated).toMatchObject({ algorithm: 'RS256', retired: oldKid });
    const set = await jwks();
    expect(set.keys.map((key) => key.kid)).toEqual([newKid, oldKid]);

    // An independent verifier with the published set accepts the old token by its kid.
    const verified = await jwtVerify(beforeCc, createLocalJWKSet(set), { issuer: server.url });
    expect(verified.protectedHeader.kid).toBe(oldKid);
    // The service: a reused token, one it never verified before, and introspection.
    expect((await callApi(beforeUsed)).status).toBe(200);
    expect((await callApi(beforeUnused)).status).toBe(200);
    expect(await introspect(beforeCc)).toMatchObject({ active: true });
  });

  it('new tokens are signed with the new key and verify everywhere', async () => {
    const after = await clientCredentials();
    const afterPersonal = await personal();
    expect(decodeProtectedHeader(after).kid).toBe(newKid);
    expect(decodeProtectedHeader(afterPersonal).kid).toBe(newKid);
    await jwtVerify(after, createLocalJWKSet(await jwks()), { issuer: server.url });
    expect((await callApi(afterPersonal)).status).toBe(200);
    expect(await introspect(after)).toMatchObject({ active: true });
  });

  it('keys:prune keeps the previous key while a live token uses it, and drops it once none does', async () => {
    expect(await tollgate('keys:prune', '--grace', '0', '--json')).toEqual({ dropped: [], kept: [oldKid] });
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, auth, beforeCc, insecure),
    );
    const revoker = server.app.container.make(TokenRevoker);
    for (const token of [beforeUsed, beforeUnused]) {
      expect(await revoker.revoke(decodeJti(token))).toBe(true);
    }
    // Just retired: the default grace period keeps it for servers that have not switched yet.
    expect(await tollgate('keys:prune', '--json')).toEqual({ dropped: [], kept: [oldKid] });
    expect(await tollgate('keys:prune', '--grace', '0', '--json')).toEqual({ dropped: [oldKid], kept: [] });
    expect((await jwks()).keys.map((key) => key.kid)).toEqual([newKid]);
    expect(await introspect(beforeCc)).toMatchObject({ active: false });
  });

  it('with keys in the environment there is one key: keys:rotate and keys:prune refuse, exit code 1', async () => {
    const pair = generateKeyPair('RS256');
    const errors: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      errors.push(String(chunk));
      return true;
    });
    process.env.OAUTH_PRIVATE_KEY = pair.privateKey;
    process.env.OAUTH_PUBLIC_KEY = pair.publicKey;
    try {
      expect(await run(['keys:rotate'])).toBe(1);
      expect(await run(['keys:prune'])).toBe(1);
    } finally {
      delete process.env.OAUTH_PRIVATE_KEY;
      delete process.env.OAUTH_PUBLIC_KEY;
      spy.mockRestore();
    }
    expect(errors.join('')).toContain('keys from the environment are one key');
    expect((await jwks()).keys.map((key) => key.kid)).toEqual([newKid]);
  });
});

function decodeJti(jwt: string): string {
  return (JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as { jti: string }).jti;
}
