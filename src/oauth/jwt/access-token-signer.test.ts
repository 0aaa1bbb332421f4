import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { defineConfig } from '../../config/index.js';
import type { SigningAlgorithm } from '../config.js';
import { installKeys } from '../keys/key-files.js';
import { SigningKeys } from '../keys/signing-keys.js';
import { AccessTokenSigner } from './access-token-signer.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const config = () => defineConfig({ database: { url: ':memory:' }, app: { url: 'https://auth.example' } });

function setup(algorithm: SigningAlgorithm) {
  const storagePath = mkdtempSync(join(tmpdir(), 'tollgate-signer-'));
  dirs.push(storagePath);
  installKeys(storagePath, algorithm);
  const config = defineConfig({
    storagePath,
    database: { url: ':memory:' },
    app: { url: 'https://auth.example' },
    oauth: { signingAlgorithm: algorithm },
  });
  const keys = new SigningKeys(config);
  return { storagePath, keys, signer: new AccessTokenSigner(keys, config) };
}

const now = Math.floor(Date.now() / 1000);
const subject = {
  tokenId: 'jti-1',
  userId: null,
  clientId: 'client-1',
  scopes: ['read', 'write'],
  issuedAt: now,
  expiresAt: now + 60,
};

describe('AccessTokenSigner (node:crypto, not SignJWT)', () => {
  it.each(['RS256', 'ES256', 'EdDSA'] as const)(
    '%s: a compact JWS jose verifies from the JWKS',
    async (alg) => {
      const { keys, signer } = setup(alg);
      const jwt = await signer.sign(subject);
      const jwks = createLocalJWKSet(await keys.jwks());
      const { payload, protectedHeader } = await jwtVerify(jwt, jwks, {
        algorithms: [alg],
        typ: 'at+jwt',
        issuer: 'https://auth.example',
        audience: 'client-1',
      });
      expect(protectedHeader).toEqual({ alg, typ: 'at+jwt', kid: (await keys.load()).kid });
      expect(payload).toEqual({
        iss: 'https://auth.example',
        sub: 'client-1',
        aud: 'client-1',
        client_id: 'client-1',
        jti: 'jti-1',
        iat: now,
        exp: now + 60,
        scope: 'read write',
        scopes: ['read', 'write'],
      });
      // Each token is signed anew: a different jti gives a different payload and signature.
      const other = await signer.sign({ ...subject, tokenId: 'jti-2', userId: 7 });
      expect(other.split('.')[0]).toBe(jwt.split('.')[0]);
      expect((await jwtVerify(other, jwks)).payload).toMatchObject({ jti: 'jti-2', sub: '7' });
    },
  );

  it('signs with the new key after the keys are replaced and reset', async () => {
    const { storagePath, keys, signer } = setup('ES256');
    const before = decodeProtectedHeader(await signer.sign(subject)).kid;
    installKeys(storagePath, 'ES256', { force: true });
    keys.reset();
    const jwt = await signer.sign(subject);
    expect(decodeProtectedHeader(jwt).kid).not.toBe(before);
    await expect(jwtVerify(jwt, createLocalJWKSet(await keys.jwks()))).resolves.toBeTruthy();
  });

  it('RS256 signs on the thread pool, concurrently, and its errors reject the promise', async () => {
    const { keys, signer } = setup('RS256');
    const jwks = createLocalJWKSet(await keys.jwks());
    const jwts = await Promise.all(
      Array.from({ length: 8 }, (_, i) => signer.sign({ ...subject, tokenId: `jti-${i}` })),
    );
    const ids = await Promise.all(jwts.map(async (jwt) => (await jwtVerify(jwt, jwks)).payload.jti));
    expect(ids).toEqual(Array.from({ length: 8 }, (_, i) => `jti-${i}`));

    // A key that cannot make an RS256 signature (Ed25519 with SHA-256) fails in the signing job.
    const loaded = await keys.load();
    const wrong = { ...loaded, signingKey: generateKeyPairSync('ed25519').privateKey };
    const broken = new AccessTokenSigner({ load: async () => wrong } as unknown as SigningKeys, config());
    await expect(broken.sign(subject)).rejects.toThrow();
  });
});
