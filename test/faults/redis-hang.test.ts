import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authProvider } from '../../src/auth/index.js';
import { createLogger } from '../../src/core/logger.js';
import { PUBLISH_TIMEOUT_MS, RevocationBroadcast } from '../../src/oauth/guard/revocation-broadcast.js';
import { Clients, installKeys, oauthProvider } from '../../src/oauth/index.js';
import { PlanBroadcast } from '../../src/plans/plan-broadcast.js';
import { ENGINES } from '../support/engines.js';
import { type OwnRedis, startRedisServer } from '../support/redis-server.js';
import { ADA, HttpBrowser, type Served, serveInstances } from '../throttle/support.js';

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
describe.each(ENGINES)('a Redis that hangs (%s)', (engine) => {
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

  /** `count` instances on this Redis, with a first-party client; `grant` asks one for a password grant. */
  const servePasswordGrant = async (count = 1) => {
    const served = await serveInstances({
      engine,
      count,
      config: { redis: { url: redis.url } },
      providers: () => [authProvider(), oauthProvider()],
      setup: (app) => {
        installKeys(app.config.storagePath, app.config.oauth.signingAlgorithm);
      },
    });
    s = served;
    const { client, plainSecret } = await served.apps[0]!.container.make(Clients).create({
      name: 'First-party app',
      redirect: '',
      password: true,
    });
    const grant = (password: string, base = served.servers[0]!.url) =>
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
    return { served, grant };
  };

  it('the login form and the password grant answer promptly, and the limits still count', async () => {
    const { served, grant } = await servePasswordGrant();
    const base = served.servers[0]!.url;
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

  it('a Redis that keeps stalling: wrong passwords for one account are compared at most twice the limit per window', async () => {
    const { served, grant } = await servePasswordGrant(2);
    const limit = served.apps[0]!.config.throttle.login.account.points;
    // Redis stalls for 400 ms (past the 300 ms command timeout) every 600 ms, as a server busy with
    // slow commands or swapping does, while guesses arrive five at a time on both instances.
    let stalling = true;
    const flapping = (async () => {
      while (stalling) {
        redis.pause();
        await new Promise((done) => setTimeout(done, 400));
        redis.resume();
        await new Promise((done) => setTimeout(done, 200));
      }
    })();
    const answers: number[] = [];
    try {
      for (let round = 0; round < 6; round++)
        answers.push(
          ...(await Promise.all(
            Array.from({ length: 5 }, (_, i) =>
              grant(`guess ${round * 5 + i}`, served.servers[i % 2]!.url).then((r) => r.status),
            ),
          )),
        );
    } finally {
      stalling = false;
      await flapping;
    }
    const compared = answers.filter((status) => status === 400).length;
    expect(answers.filter((status) => status !== 400 && status !== 429)).toEqual([]);
    // Each store counts its share of the window (Redis while it answers, the database while it
    // does not) and neither sees the other's: at most the limit in each (docs/security.md).
    expect(compared).toBeLessThanOrEqual(2 * limit);
  }, 60_000);

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
        Promise.all([
          revocations.publish({ type: 'token', id: 'during' }),
          revocations.publish({ type: 'client-changed', id: 'during' }),
          plans.publish(7),
        ]),
      );
      expect(published.ms).toBeLessThan(PUBLISH_TIMEOUT_MS + 1_500);
      expect(warnings).toContain('Could not publish a token revocation to Redis');
      expect(warnings).toContain('Could not publish a client change to Redis');
      expect(warnings).toContain('Could not publish a plan change to Redis');
    } finally {
      redis.resume();
      await revocations.close();
      plans.close();
    }
  });
});
