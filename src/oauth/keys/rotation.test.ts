import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeProtectedHeader } from 'jose';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { defineConfig } from '../../config/index.js';
import { TestClock } from '../../core/clock.js';
import type { SigningAlgorithm } from '../config.js';
import { AccessTokenSigner } from '../jwt/access-token-signer.js';
import { AccessTokenVerifier } from '../jwt/access-token-verifier.js';
import { installKeys, keyPaths } from './key-files.js';
import { previousKeysPath, readPreviousKeys } from './previous-keys.js';
import { pruneKeys, rotateKeys } from './rotation.js';
import { SigningKeys } from './signing-keys.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const NOW = new Date('2026-01-01T00:00:00Z');
const iat = NOW.getTime() / 1000;

/** One "server": its own SigningKeys, signer and verifier over a shared storage folder. */
function server(storagePath: string, signingAlgorithm: SigningAlgorithm = 'RS256') {
  const config = defineConfig({
    storagePath,
    database: { url: ':memory:' },
    app: { url: 'https://auth.example' },
    oauth: { signingAlgorithm },
  });
  const keys = new SigningKeys(config);
  return {
    keys,
    signer: new AccessTokenSigner(keys, config),
    verifier: new AccessTokenVerifier(keys, config, new TestClock(NOW)),
  };
}

function storage(): string {
  const path = mkdtempSync(join(tmpdir(), 'tollgate-rotation-'));
  dirs.push(path);
  installKeys(path, 'RS256');
  return path;
}

const subject = (tokenId: string) => ({
  tokenId,
  userId: 7,
  clientId: 'client-1',
  scopes: ['read'],
  issuedAt: iat,
  expiresAt: iat + 3600,
});

describe('signing key rotation', () => {
  it('a token signed before keys:rotate still verifies after it; new tokens carry the new kid', async () => {
    const path = storage();
    const running = server(path);
    const before = await running.signer.sign(subject('old'));
    const oldKid = decodeProtectedHeader(before).kid!;

    const { kid, retired } = await rotateKeys(path, 'RS256', { now: NOW });
    expect(retired.kid).toBe(oldKid);
    expect(kid).not.toBe(oldKid);
    expect(statSync(keyPaths(path).privateKey).mode & 0o777).toBe(0o600);
    expect(statSync(previousKeysPath(path)).mode & 0o777).toBe(0o600);

    // The JWKS reads the files: current key first, then the previous one.
    expect((await running.keys.jwks()).keys.map((key) => key.kid)).toEqual([kid, oldKid]);
    const after = await running.signer.sign(subject('new'));
    expect(decodeProtectedHeader(after).kid).toBe(kid);
    await expect(running.verifier.verify(before)).resolves.toMatchObject({ jti: 'old' });
    await expect(running.verifier.verify(after)).resolves.toMatchObject({ jti: 'new' });
    await expect(running.verifier.verifySignature(before)).resolves.toMatchObject({ jti: 'old' });
  });

  it('a signing server switches to the new key by itself within 5 seconds', async () => {
    const path = storage();
    const { signer } = server(path);
    const kidOf = async () => decodeProtectedHeader(await signer.sign(subject('t'))).kid;
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      const old = await kidOf();
      const { kid } = await rotateKeys(path, 'RS256', { now: NOW });
      expect(await kidOf()).toBe(old);
      vi.advanceTimersByTime(5_001);
      await vi.waitFor(async () => expect(await kidOf()).toBe(kid));
    } finally {
      vi.useRealTimers();
    }
  });

  it('a server that has not looked at the files yet verifies a token signed with a key rotated in elsewhere', async () => {
    const path = storage();
    const stale = server(path);
    await stale.keys.load();
    await rotateKeys(path, 'RS256', { now: NOW });
    const fresh = server(path);
    const token = await fresh.signer.sign(subject('from-another-instance'));
    // The unknown kid makes the verifier read the key files again.
    await expect(stale.verifier.verify(token)).resolves.toMatchObject({ jti: 'from-another-instance' });
  });

  it('refuses a kid no key file has, and a known kid under another algorithm', async () => {
    const path = storage();
    const { signer, verifier } = server(path);
    const token = await signer.sign(subject('x'));
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const forge = (fields: object) =>
      `${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(header, 'base64url').toString()), ...fields })).toString('base64url')}.${payload}.${signature}`;
    await expect(verifier.verify(forge({ kid: 'unknown' }))).rejects.toMatchObject({ code: 'invalid_token' });
    await expect(verifier.verify(forge({ alg: 'ES256' }))).rejects.toMatchObject({ code: 'invalid_token' });
    await expect(verifier.verifySignature(forge({ kid: 'unknown' }))).resolves.toBeUndefined();
  });

  it('keys:prune drops only previous keys no live token uses, after the grace period; legacy tokens keep the oldest', async () => {
    const path = storage();
    const first = (await rotateKeys(path, 'RS256', { now: NOW })).retired.kid;
    const later = new Date(NOW.getTime() + 3_600_000);
    const second = (await rotateKeys(path, 'RS256', { now: later })).retired.kid;
    const inAnHour = new Date(later.getTime() + 3_600_000);

    // The second key was retired moments ago: kept though no token uses it; the first is in use.
    expect(pruneKeys(path, { kidsInUse: [first], now: later, graceSeconds: 300 }).dropped).toEqual([]);
    // A token with no recorded kid predates rotation: the oldest previous key stays for it.
    const legacy = pruneKeys(path, { kidsInUse: [null, second], now: inAnHour, graceSeconds: 300 });
    expect(legacy.dropped).toEqual([]);
    const used = pruneKeys(path, { kidsInUse: [second], now: inAnHour, graceSeconds: 300 });
    expect(used.dropped.map((key) => key.kid)).toEqual([first]);
    expect(readPreviousKeys(path).map((key) => key.kid)).toEqual([second]);

    const { keys, verifier, signer } = server(path);
    const stillGood = await signer.sign(subject('current'));
    expect(pruneKeys(path, { kidsInUse: [], now: inAnHour, graceSeconds: 0 }).dropped).toHaveLength(1);
    expect((await keys.jwks()).keys).toHaveLength(1);
    await expect(verifier.verify(stillGood)).resolves.toMatchObject({ jti: 'current' });
  });

  it('rotating into another algorithm: the old tokens verify with their own', async () => {
    const path = storage();
    const token = await server(path).signer.sign(subject('rsa'));
    await rotateKeys(path, 'ES256', { now: NOW });
    const { signer, verifier, keys } = server(path, 'ES256');
    expect((await keys.jwks()).keys.map((key) => key.alg)).toEqual(['ES256', 'RS256']);
    await expect(verifier.verify(token)).resolves.toMatchObject({ jti: 'rsa' });
    const next = await signer.sign(subject('ec'));
    expect(decodeProtectedHeader(next).alg).toBe('ES256');
    await expect(verifier.verify(next)).resolves.toMatchObject({ jti: 'ec' });
  });

  it('environment keys are one key: no previous keys, nothing to reload', async () => {
    const path = storage();
    await rotateKeys(path, 'RS256', { now: NOW });
    const pem = (await import('./key-files.js')).generateKeyPair('RS256');
    const config = defineConfig({
      storagePath: path,
      database: { url: ':memory:' },
      oauth: { privateKey: pem.privateKey, publicKey: pem.publicKey },
    });
    const keys = new SigningKeys(config);
    expect((await keys.jwks()).keys).toHaveLength(1);
    expect((await keys.load()).source).toBe('environment');
  });
});
