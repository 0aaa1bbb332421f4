import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { defineConfig } from '../../config/index.js';
import { TestClock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { OAuthError } from '../errors.js';
import { installKeys } from '../keys/key-files.js';
import { SigningKeys } from '../keys/signing-keys.js';
import { AccessTokenSigner } from './access-token-signer.js';
import { AccessTokenVerifier } from './access-token-verifier.js';

const storagePath = mkdtempSync(join(tmpdir(), 'tollgate-issuer-'));
installKeys(storagePath, 'RS256');
afterAll(() => rmSync(storagePath, { recursive: true, force: true }));

const start = new Date('2026-03-01T00:00:00Z');
const now = start.getTime() / 1000;
const configFor = (url: string, env: 'development' | 'production') =>
  defineConfig({ storagePath, database: { url: ':memory:' }, app: { url, env } });

/** Two instances sharing signing keys but not APP_URL: one's tokens are refused by the other. */
async function refusal(env: 'development' | 'production') {
  const signer = new AccessTokenSigner(
    new SigningKeys(configFor('https://a.example', env)),
    configFor('https://a.example', env),
  );
  const info = vi.fn();
  const config = configFor('https://b.example', env);
  const verifier = new AccessTokenVerifier(new SigningKeys(config), config, new TestClock(start), {
    info,
  } as unknown as Logger);
  const token = await signer.sign({
    tokenId: 'jti-1',
    userId: 7,
    clientId: 'client-1',
    scopes: [],
    issuedAt: now,
    expiresAt: now + 60,
  });
  const err = await verifier.verify(token).then(
    () => undefined,
    (e: unknown) => e,
  );
  return { err: err as OAuthError, info };
}

describe('a token signed by our keys for another issuer (RFC 9068 §4: iss must match)', () => {
  it('is refused, logged at info with both issuers, and the 401 says why outside production', async () => {
    const { err, info } = await refusal('development');
    expect(err).toBeInstanceOf(OAuthError);
    expect(err.code).toBe('invalid_token');
    expect(err.description).toMatch(/another issuer: every instance needs the same APP_URL/);
    expect(info).toHaveBeenCalledWith(
      { iss: 'https://a.example', issuer: 'https://b.example' },
      expect.stringContaining('another issuer'),
    );
  });

  it('in production the 401 stays generic; the log still says why', async () => {
    const { err, info } = await refusal('production');
    expect(err.code).toBe('invalid_token');
    expect(err.description).toBe('The access token is invalid.');
    expect(err.detail).toContain('https://a.example');
    expect(info).toHaveBeenCalledOnce();
  });
});
