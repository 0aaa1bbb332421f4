import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenGuard } from '../../src/oauth/guard/index.js';
import { AccessTokenSigner } from '../../src/oauth/index.js';
import { ENGINES } from '../support/engines.js';
import { type ProtectionApp, protectionApp } from './support.js';

const CAPACITY = 16;

/**
 * The guard's memory does not grow with the distinct tokens it sees: a client that sends a new
 * token with every request (issue 35's new-token row sends 60,000) fills its caches to their
 * capacity and no further.
 */
describe.each(ENGINES)('the api guard under many distinct tokens (%s)', (engine) => {
  let t: ProtectionApp;

  beforeAll(async () => {
    t = await protectionApp({
      engine,
      guard: { maxVerifiedTokens: CAPACITY, maxTokenStates: CAPACITY },
    });
  });
  afterAll(async () => t.stop());

  it('keeps at most its capacity of verified tokens and token states, and still serves each token', async () => {
    const guard = t.app.container.make(TokenGuard);
    const signer = t.app.container.make(AccessTokenSigner);
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const rows = [];
    for (let i = 0; i < 2 * CAPACITY; i++) rows.push((await t.ada.createToken(`many ${i}`, [])).token);
    // Each row signed three times with a different `iat`: three distinct valid tokens per row.
    const tokens: string[] = [];
    for (let round = 0; round < 3; round++)
      for (const row of rows)
        tokens.push(
          await signer.sign({
            tokenId: row.id,
            userId: row.userId,
            clientId: row.clientId,
            scopes: [...row.scopes],
            issuedAt: now - round,
            expiresAt: now + 3600,
          }),
        );
    expect(new Set(tokens).size).toBe(6 * CAPACITY);
    // Twice each: the second verification admits a token to the verified-token cache.
    for (const token of [...tokens, ...tokens]) {
      expect((await t.call('/api/user', token)).status).toBe(200);
      expect(guard.verified.size).toBeLessThanOrEqual(CAPACITY);
      expect(guard.revocations.size).toBeLessThanOrEqual(CAPACITY);
    }
    expect(guard.verified.size).toBeGreaterThan(0);
    // A token sent twice in a row is cached (its doorkeeper slot is its own between the two: in the
    // loop above another token may share the slot, a 1-in-1,024 chance per token in between); the
    // first token, long evicted, is verified again.
    const last = tokens.at(-1)!;
    for (let i = 0; i < 2; i++) expect((await t.call('/api/user', last)).status).toBe(200);
    expect(guard.verified.get(`Bearer ${last}`)).toBeDefined();
    expect(guard.verified.get(`Bearer ${tokens[0]}`)).toBeUndefined();
    expect((await t.call('/api/user', tokens[0])).status).toBe(200);
  });
});
