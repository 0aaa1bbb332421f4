import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import type { Clock } from '../../core/clock.js';
import type { TollgateConfig } from '../../core/config.js';
import { ClockKey, ConfigKey, LoggerKey } from '../../core/keys.js';
import type { Logger } from '../../core/logger.js';
import { AccessTokenSigner, issuerOf } from '../jwt/access-token-signer.js';
import { encodeHeader, signCompact } from '../jwt/compact-jws.js';
import { BackchannelDeliveries, type Delivery } from './backchannel-deliveries.js';
import { ClientLogout } from './client-logout.js';

/** Back-Channel Logout §2.4: the event a logout token carries. */
export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** Attempts per delivery, and the wait before the first retry (doubling after each failure). */
const ATTEMPTS = 4;
const FIRST_RETRY_MS = 1_000;
/** How long an attempt holds its delivery: past it, another instance (or a restart) may send it. */
const ATTEMPT_LEASE_MS = 60_000;
/** §2.4: a logout token's lifetime; a delivery resumed later goes out re-signed. */
const TOKEN_TTL_SECONDS = 120;

/**
 * Back-Channel Logout 1.0: when a login session ends, each client authorized in it that
 * registered a `backchannel_logout_uri` gets one signed logout token (§2.4, `typ: logout+jwt`)
 * POSTed to it (§2.5). Deliveries run beside the request that logged out, never in its way; a
 * failed one is retried a few times with a doubling wait (§2.8 lets the OP give up). Deliveries
 * are stored until made or given up, so a restart resumes them (`resume`, at boot).
 */
export class BackchannelLogout {
  static inject = [
    ClientLogout,
    BackchannelDeliveries,
    AccessTokenSigner,
    ClockKey,
    ConfigKey,
    LoggerKey,
  ] as const;
  readonly #issuer: string;
  readonly #pending = new Set<Promise<void>>();
  /** The retry waits under way, each with what ends it early. */
  readonly #waits = new Map<NodeJS.Timeout, () => void>();
  #closed = false;

  constructor(
    private readonly clients: ClientLogout,
    private readonly deliveries: BackchannelDeliveries,
    private readonly signer: AccessTokenSigner,
    private readonly clock: Clock,
    config: TollgateConfig,
    private readonly logger: Logger,
  ) {
    this.#issuer = issuerOf(config);
  }

  /** Starts telling the clients of login session `sid` that it ended; returns at once. */
  sessionEnded(sid: string): void {
    this.#track(this.#sessionEnded(sid));
  }

  /** Resumes the stored deliveries (a restart, or another instance that stopped); returns at once. */
  resume(): void {
    this.#track(
      this.deliveries.pending().then((deliveries) => {
        const now = this.clock.now().getTime();
        for (const delivery of deliveries) {
          this.#track(
            this.#wait(Math.max(0, Date.parse(delivery.nextAttemptAt) - now)).then(() =>
              this.#closed ? undefined : this.#attempt(delivery),
            ),
          );
        }
      }),
    );
  }

  /** Resolves when every delivery started so far has finished or given up (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  /** Stops retrying (application shutdown); what is left stays stored for the next start. */
  close(): void {
    this.#closed = true;
    for (const [timer, end] of this.#waits) {
      clearTimeout(timer);
      end();
    }
    this.#waits.clear();
  }

  async #sessionEnded(sid: string): Promise<void> {
    const clients = await this.clients.takeSession(sid);
    for (const client of clients) {
      const settings = await this.clients.settings(client.clientId);
      if (!settings.backchannelLogoutUri) continue;
      const jti = randomUUID();
      const now = this.clock.now().toISOString();
      const delivery = await this.deliveries.add(
        {
          id: jti,
          clientId: client.clientId,
          uri: settings.backchannelLogoutUri,
          logoutToken: await this.#logoutToken({
            jti,
            aud: client.clientId,
            sub: String(client.userId),
            sid,
          }),
          nextAttemptAt: now,
        },
        now,
      );
      this.#track(this.#attempt(delivery));
    }
  }

  async #attempt(delivery: Delivery): Promise<void> {
    while (!this.#closed) {
      const now = this.clock.now().getTime();
      if (!(await this.deliveries.claim(delivery, new Date(now + ATTEMPT_LEASE_MS).toISOString()))) return;
      const token = await this.#current(delivery.logoutToken);
      if (await this.#post(delivery.uri, token)) return this.deliveries.remove(delivery.id);
      if (delivery.attempts >= ATTEMPTS) {
        await this.deliveries.remove(delivery.id);
        this.logger.warn({ clientId: delivery.clientId }, 'back-channel logout not delivered');
        return;
      }
      const waitMs = FIRST_RETRY_MS * 2 ** (delivery.attempts - 1);
      await this.deliveries.retryAt(delivery, new Date(now + waitMs).toISOString(), token);
      await this.#wait(waitMs);
    }
  }

  /** The stored token, or (expired: a delivery resumed late) the same claims signed anew. */
  async #current(token: string): Promise<string> {
    const claims = decodeJwt(token);
    const now = Math.floor(this.clock.now().getTime() / 1000);
    if ((claims.exp ?? 0) > now) return token;
    return this.#logoutToken({
      jti: String(claims.jti),
      aud: String(claims.aud),
      sub: String(claims.sub),
      sid: String(claims.sid),
    });
  }

  /** §2.4: iss, aud, iat, exp, jti, sub, sid and the events claim; never a nonce. */
  async #logoutToken(claims: { jti: string; aud: string; sub: string; sid: string }): Promise<string> {
    const signing = await this.signer.currentKey();
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    const header = encodeHeader({ alg: signing.algorithm, typ: 'logout+jwt', kid: signing.kid });
    return signCompact(signing, header, {
      iss: this.#issuer,
      aud: claims.aud,
      iat,
      exp: iat + TOKEN_TTL_SECONDS,
      jti: claims.jti,
      sub: claims.sub,
      sid: claims.sid,
      events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
    });
  }

  /** §2.5–2.8: a form POST; 200 or 204 is delivered, anything else (or no answer) is retried. */
  async #post(uri: string, token: string): Promise<boolean> {
    try {
      const res = await fetch(uri, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ logout_token: token }),
        redirect: 'manual',
        signal: AbortSignal.timeout(5_000),
      });
      await res.body?.cancel();
      return res.status === 200 || res.status === 204;
    } catch {
      return false;
    }
  }

  #wait(ms: number): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waits.delete(timer);
        resolve();
      }, ms);
      timer.unref();
      this.#waits.set(timer, resolve);
    });
  }

  #track(work: Promise<void>): void {
    const tracked = work.catch((err) => this.logger.error({ err }, 'back-channel logout failed'));
    this.#pending.add(tracked);
    void tracked.finally(() => this.#pending.delete(tracked));
  }
}
