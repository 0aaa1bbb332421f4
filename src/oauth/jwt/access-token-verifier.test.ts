import { createHook } from 'node:async_hooks';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { defineConfig } from '../../config/index.js';
import { TestClock } from '../../core/clock.js';
import type { SigningAlgorithm } from '../config.js';
import { installKeys } from '../keys/key-files.js';
import { SigningKeys } from '../keys/signing-keys.js';
import { AccessTokenSigner } from './access-token-signer.js';
import { AccessTokenVerifier } from './access-token-verifier.js';
import { ACCESS_TOKEN_TYP } from './claims.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const start = new Date('2026-03-01T00:00:00Z');
const nowSeconds = start.getTime() / 1000;

function setup(algorithm: SigningAlgorithm) {
  const storagePath = mkdtempSync(join(tmpdir(), 'tollgate-verifier-'));
  dirs.push(storagePath);
  installKeys(storagePath, algorithm);
  const config = defineConfig({
    storagePath,
    database: { url: ':memory:' },
    app: { url: 'https://auth.example' },
    oauth: { signingAlgorithm: algorithm },
  });
  const keys = new SigningKeys(config);
  const clock = new TestClock(start);
  return {
    keys,
    clock,
    signer: new AccessTokenSigner(keys, config),
    verifier: new AccessTokenVerifier(keys, config, clock),
  };
}

const subject = {
  tokenId: 'jti-1',
  userId: 7,
  clientId: 'client-1',
  scopes: ['read'],
  issuedAt: nowSeconds,
  expiresAt: nowSeconds + 60,
};

/** Replaces the payload (middle part) of a compact JWS, keeping its header and signature. */
function withPayload(jwt: string, claims: Record<string, unknown>): string {
  const [header, , signature] = jwt.split('.');
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
}

describe('AccessTokenVerifier on our own tokens (RFC 9068 §4, RFC 7515 §5.2)', () => {
  it.each(['RS256', 'ES256', 'EdDSA'] as const)('%s: accepts what the signer issued', async (alg) => {
    const { signer, verifier } = setup(alg);
    const claims = await verifier.verify(await signer.sign(subject));
    expect(claims).toMatchObject({ jti: 'jti-1', sub: '7', client_id: 'client-1', scopes: ['read'] });
  });

  it.each(['RS256', 'ES256', 'EdDSA'] as const)(
    '%s: refuses a changed payload under our header',
    async (alg) => {
      const { signer, verifier } = setup(alg);
      const jwt = await signer.sign(subject);
      const forged = withPayload(jwt, {
        ...JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()),
        scopes: ['*'],
      });
      await expect(verifier.verify(forged)).rejects.toMatchObject({ code: 'invalid_token' });
    },
  );

  it('RS256: checks the signature on the calling thread, not as a job on the libuv pool', async () => {
    // A pool job per new token cost more CPU than the check itself and kept each request's
    // objects alive into the old generation under load (docs/benchmarks.md, issue 35).
    const { signer, verifier } = setup('RS256');
    const jwt = await signer.sign(subject);
    await verifier.verify(jwt);
    // node:crypto makes a SIGNREQUEST job either way; only a pool job calls back later.
    const jobs = new Set<number>();
    let calledBack = 0;
    const hook = createHook({
      init: (id, type) => {
        if (type === 'SIGNREQUEST') jobs.add(id);
      },
      before: (id) => {
        if (jobs.has(id)) calledBack++;
      },
    }).enable();
    try {
      expect((await verifier.verify(jwt)).jti).toBe('jti-1');
    } finally {
      hook.disable();
    }
    expect(jobs.size).toBe(1);
    expect(calledBack).toBe(0);
  });

  it('refuses an expired token by the injected clock, and one with extra parts', async () => {
    const { signer, verifier, clock } = setup('RS256');
    const jwt = await signer.sign(subject);
    await expect(verifier.verify(`${jwt}.extra`)).rejects.toMatchObject({ code: 'invalid_token' });
    clock.advance(60_000);
    await expect(verifier.verify(jwt)).rejects.toMatchObject({
      description: 'The access token has expired.',
    });
  });

  it('refuses another issuer even when the signature is ours', async () => {
    const { keys, verifier } = setup('ES256');
    const { privateKey, kid } = await keys.load();
    const jwt = await new SignJWT({ client_id: 'c', jti: 'j', scopes: [] })
      .setProtectedHeader({ alg: 'ES256', typ: ACCESS_TOKEN_TYP, kid })
      .setIssuer('https://elsewhere.example')
      .setSubject('1')
      .setIssuedAt(nowSeconds)
      .setExpirationTime(nowSeconds + 60)
      .sign(privateKey);
    await expect(verifier.verify(jwt)).rejects.toMatchObject({ code: 'invalid_token' });
  });

  it('still verifies a token of ours whose header is serialised differently (the jose path)', async () => {
    const { keys, verifier } = setup('RS256');
    const { privateKey, kid } = await keys.load();
    const jwt = await new SignJWT({ client_id: 'c', jti: 'j', scopes: ['read'] })
      .setProtectedHeader({ typ: ACCESS_TOKEN_TYP, kid, alg: 'RS256' })
      .setIssuer('https://auth.example')
      .setSubject('1')
      .setIssuedAt(nowSeconds)
      .setExpirationTime(nowSeconds + 60)
      .sign(privateKey);
    expect((await verifier.verify(jwt)).jti).toBe('j');
  });
});
