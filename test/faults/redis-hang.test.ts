import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authProvider } from '../../src/auth/index.js';
import { createLogger } from '../../src/core/logger.js';
import { PUBLISH_TIMEOUT_MS, RevocationBroadcast } from '../../src/oauth/guard/revocation-broadcast.js';
import { Clients, installKeys, oauthProvider } from '../../src/oauth/index.js';
import { PlanBroadcast } from '../../src/plans/plan-broadcast.js';
import { type OwnRedis, startRedisServer } from '../support/redis-server.js';
import { ADA, engine, HttpBrowser, type Served, serveInstances } from '../throttle/support.js';

/** Milliseconds `work` took, and what it returned. */
async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

/**
 * A Redis that accepts connections but answers nothing (paused with SIGSTOP, as a stuck or
 * swapped-out server): logins fall back to counting in the database within one short command
 * timeout, instead of waiting as long as Redis hangs.
 */
describe(`a Redis that hangs (${engine})`, () => {
  let redis: OwnRedis;
  let s: Served | undefined;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterEach(async () => {
    redis.resume();
    await s?.close();
    s = undefined;
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('the login form and the password grant answer promptly, and the limits still count', async () => {
    s = await serveInstances({
      config: { redis: { url: redis.url } },
      providers: () => [authProvider(), oauthProvider()],
      setup: (app) => {
        installKeys(app.config.storagePath, app.config.oauth.signingAlgorithm);
      },
    });
    const { client, plainSecret } = await s.apps[0]!.container.make(Clients).create({
      name: 'First-party app',
      redirect: '',
      password: true,
    });
    const base = s.servers[0]!.url;
    const grant = (password: string) =>
      fetch(`${base}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'password',
          username: ADA.email,
          password,
          client_id: client.id,
          client_secret: plainSecret!,
        }),
        signal: AbortSignal.timeout(10_000),
      });
    const post = await new HttpBrowser(base).form('/login');
    expect((await grant(ADA.password)).status).toBe(200); // Redis answers: counted there

    redis.pause();
    const login = await timed(() => post({ email: ADA.email, password: ADA.password }));
    expect(login.value.status).toBe(302);
    const token = await timed(() => grant(ADA.password));
    expect(token.value.status).toBe(200);
    // One command timeout (300 ms), then the connection is down and every count goes to the
    // database at once; the rest is the password check on a busy machine.
    expect(login.ms).toBeLessThan(3_000);
    expect(token.ms).toBeLessThan(3_000);

    // The documented policy holds for a hang as for a refusal: the database counts meanwhile.
    const wrong: number[] = [];
    for (let i = 0; i < 6; i++) wrong.push((await grant(`guess ${i}`)).status);
    expect(wrong).toEqual([400, 400, 400, 400, 400, 429]);
  });

  it('a token revocation or plan change published to it ends within the publish timeout, logged, instead of waiting', async () => {
    const logger = createLogger('silent');
    const warnings: string[] = [];
    logger.warn = ((_: unknown, message: string) => void warnings.push(message)) as typeof logger.warn;
    const revocations = new RevocationBroadcast(
      redis.url,
      'test-revocations',
      { revoked() {}, flush() {} },
      logger,
    );
    const plans = new PlanBroadcast(redis.url, 'test-plans', { forget() {}, clear() {} }, logger);
    try {
      await revocations.publish({ type: 'token', id: 'before' }); // connected and answering
      redis.pause();
      const published = await timed(() =>
        Promise.all([revocations.publish({ type: 'token', id: 'during' }), plans.publish(7)]),
      );
      expect(published.ms).toBeLessThan(PUBLISH_TIMEOUT_MS + 1_500);
      expect(warnings).toContain('Could not publish a token revocation to Redis');
      expect(warnings).toContain('Could not publish a plan change to Redis');
    } finally {
      redis.resume();
      await revocations.close();
      plans.close();
    }
  });
});
