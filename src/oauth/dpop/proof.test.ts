import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { checkProof, ProofRefused } from './proof.js';
import { ProofKeys } from './proof-key.js';

const now = Math.floor(Date.now() / 1000);
const expected = { method: 'POST', urls: ['https://as.example/oauth/token'], now, windowSeconds: 60 };

async function proofWith(
  alg: 'ES256' | 'ES384' | 'EdDSA' | 'RS256' | 'PS256',
  claims: Record<string, unknown> = {},
) {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(publicKey);
  const proof = await new SignJWT({
    htm: 'POST',
    htu: 'https://as.example/oauth/token',
    iat: now,
    jti: randomUUID(),
    ...claims,
  })
    .setProtectedHeader({ alg, typ: 'dpop+jwt', jwk })
    .sign(privateKey);
  return { proof, jwk };
}

describe('checkProof with node:crypto keys', () => {
  it.each(['ES256', 'ES384', 'EdDSA', 'RS256', 'PS256'] as const)(
    'accepts a %s proof and returns the RFC 7638 thumbprint jose computes',
    async (alg) => {
      const { proof, jwk } = await proofWith(alg);
      const checked = await checkProof(proof, expected);
      expect(checked.jkt).toBe(await calculateJwkThumbprint(jwk, 'sha256'));
    },
  );

  it('refuses a proof whose signature was altered, and one whose payload was swapped', async () => {
    const { proof } = await proofWith('ES256');
    const [h, p, s] = proof.split('.') as [string, string, string];
    const flipped = `${s.slice(0, -2)}${s.at(-2) === 'A' ? 'B' : 'A'}${s.at(-1)}`;
    await expect(checkProof(`${h}.${p}.${flipped}`, expected)).rejects.toThrow(ProofRefused);
    const other = (await proofWith('ES256')).proof.split('.')[1];
    await expect(checkProof(`${h}.${other}.${s}`, expected)).rejects.toThrow('signature verification failed');
  });

  it('refuses a key of the wrong type or curve for its alg, and an RSA key under 2048 bits', async () => {
    const keys = new ProofKeys();
    const ec = (await exportJWK((await generateKeyPair('ES256', { extractable: true })).publicKey)) as Record<
      string,
      unknown
    >;
    expect(() => keys.of(ec, 'RS256')).toThrow(/RSA/);
    expect(() => keys.of(ec, 'ES384')).toThrow(/P-384/);
    const weak = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' });
    expect(() => keys.of(weak as Record<string, unknown>, 'RS256')).toThrow(/2048/);
  });

  it('refuses crit, an expired exp, and a header jwk without its members', async () => {
    const { proof: expired } = await proofWith('ES256', { exp: now - 1 });
    await expect(checkProof(expired, expected)).rejects.toThrow('exp has passed');
    const { proof } = await proofWith('ES256');
    const header = JSON.parse(Buffer.from(proof.split('.')[0]!, 'base64url').toString()) as { jwk: JWK };
    const withCrit = Buffer.from(JSON.stringify({ ...header, crit: ['x'], x: 1 })).toString('base64url');
    await expect(
      checkProof(`${withCrit}.${proof.split('.')[1]}.${proof.split('.')[2]}`, expected),
    ).rejects.toThrow('crit');
    const noY = Buffer.from(JSON.stringify({ ...header, jwk: { ...header.jwk, y: undefined } })).toString(
      'base64url',
    );
    await expect(
      checkProof(`${noY}.${proof.split('.')[1]}.${proof.split('.')[2]}`, expected),
    ).rejects.toThrow('"y"');
  });

  it('imports a key once: the same client key is one cache entry across proofs', async () => {
    const keys = new ProofKeys();
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const jwk = await exportJWK(publicKey);
    const sign = () =>
      new SignJWT({ htm: 'POST', htu: 'https://as.example/oauth/token', iat: now, jti: randomUUID() })
        .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk })
        .sign(privateKey);
    const first = keys.of(jwk as Record<string, unknown>, 'ES256');
    await checkProof(await sign(), expected, keys);
    await checkProof(await sign(), expected, keys);
    expect(keys.of(jwk as Record<string, unknown>, 'ES256')).toBe(first);
  });
});
