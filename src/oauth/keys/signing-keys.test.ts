import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defineConfig } from '../../config/index.js';
import { TestClock } from '../../core/clock.js';
import type { SigningAlgorithm } from '../config.js';
import { AccessTokenSigner } from '../jwt/access-token-signer.js';
import { AccessTokenVerifier } from '../jwt/access-token-verifier.js';
import { generateKeyPair, installKeys, keyPaths } from './key-files.js';
import { SigningKeys } from './signing-keys.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function setup(algorithm: SigningAlgorithm, env?: { privateKey: string; publicKey: string }) {
  const storagePath = mkdtempSync(join(tmpdir(), 'tollgate-keys-'));
  dirs.push(storagePath);
  const config = defineConfig({
    storagePath,
    database: { url: ':memory:' },
    app: { url: 'https://auth.example/' },
    oauth: { signingAlgorithm: algorithm, ...env },
  });
  const keys = new SigningKeys(config);
  const clock = new TestClock(new Date('2026-01-01T00:00:00Z'));
  return {
    storagePath,
    config,
    keys,
    signer: new AccessTokenSigner(keys, config),
    verifier: new AccessTokenVerifier(keys, config, clock),
  };
}

const subject = (iat: number) => ({
  tokenId: 'abc',
  userId: 7,
  clientId: 'client-1',
  scopes: ['read'],
  issuedAt: iat,
  expiresAt: iat + 3600,
});

describe('signing keys', () => {
  it.each(['RS256', 'ES256', 'EdDSA'] as const)(
    '%s: install, sign, verify (RFC 9068 claims)',
    async (alg) => {
      const { storagePath, keys, signer, verifier } = setup(alg);
      await expect(keys.load()).rejects.toThrow(/tollgate install/);
      expect(installKeys(storagePath, alg)).toBe(true);
      expect(installKeys(storagePath, alg)).toBe(false);
      expect(statSync(keyPaths(storagePath).privateKey).mode & 0o777).toBe(0o600);
      const iat = Date.parse('2026-01-01T00:00:00Z') / 1000;
      const jwt = await signer.sign(subject(iat));
      const claims = await verifier.verify(jwt);
      expect(claims).toEqual({
        iss: 'https://auth.example',
        sub: '7',
        aud: 'client-1',
        client_id: 'client-1',
        jti: 'abc',
        iat,
        exp: iat + 3600,
        scope: 'read',
        scopes: ['read'],
      });
      const jwks = await keys.jwks();
      expect(jwks.keys[0]).toMatchObject({ alg, use: 'sig' });
    },
  );

  it('reads PEM keys from the environment, with \\n escapes', async () => {
    const pair = generateKeyPair('RS256');
    const escapeNewlines = (pem: string) => pem.replace(/\n/g, '\\n');
    const { keys, signer, verifier } = setup('RS256', {
      privateKey: escapeNewlines(pair.privateKey),
      publicKey: escapeNewlines(pair.publicKey),
    });
    const loaded = await keys.load();
    expect(loaded.algorithm).toBe('RS256');
    const iat = Date.parse('2026-01-01T00:00:00Z') / 1000;
    await expect(verifier.verify(await signer.sign(subject(iat)))).resolves.toMatchObject({ jti: 'abc' });
  });

  it('a key of the wrong type for the algorithm is a clear configuration error', async () => {
    const pair = generateKeyPair('EdDSA');
    const { keys } = setup('RS256', pair);
    await expect(keys.load()).rejects.toThrow(/cannot be used with RS256/);
  });
});
