import { randomUUID } from 'node:crypto';
import type { Clock } from '../../core/clock.js';
import type { TollgateConfig } from '../../core/config.js';
import { ClockKey, ConfigKey, LoggerKey } from '../../core/keys.js';
import type { Logger } from '../../core/logger.js';
import { AccessTokenSigner, issuerOf } from '../jwt/access-token-signer.js';
import { encodeHeader, signCompact } from '../jwt/compact-jws.js';
import { ClientLogout, type LoggedInClient } from './client-logout.js';

/** Back-Channel Logout §2.4: the event a logout token carries. */
export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** Attempts per delivery, and the wait before the first retry (doubling after each failure). */
const ATTEMPTS = 4;
const FIRST_RETRY_MS = 1_000;

/**
 * Back-Channel Logout 1.0: when a login session ends, each client authorized in it that
 * registered a `backchannel_logout_uri` gets one signed logout token (§2.4, `typ: logout+jwt`)
 * POSTed to it (§2.5). Deliveries run beside the request that logged out, never in its way; a
 * failed one is retried a few times with a doubling wait (§2.8 lets the OP give up).
 */
export class BackchannelLogout {
  static inject = [ClientLogout, AccessTokenSigner, ClockKey, ConfigKey, LoggerKey] as const;
  readonly #issuer: string;
  readonly #pending = new Set<Promise<void>>();
  /** The retry waits under way, each with what ends it early. */
  readonly #waits = new Map<NodeJS.Timeout, () => void>();
  #closed = false;

  constructor(
    private readonly clients: ClientLogout,
    private readonly signer: AccessTokenSigner,
    private readonly clock: Clock,
    config: TollgateConfig,
    private readonly logger: Logger,
  ) {
    this.#issuer = issuerOf(config);
  }

  /** Starts telling the clients of login session `sid` that it ended; returns at once. */
  sessionEnded(sid: string): void {
    this.#track(
      this.clients.takeSession(sid).then(
        (clients) => {
          for (const client of clients) this.#track(this.#notify(sid, client));
        },
        (err) => this.logger.error({ err }, 'back-channel logout: reading the session failed'),
      ),
    );
  }

  /** Resolves when every delivery started so far has finished or given up (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  /** Stops retrying (application shutdown). */
  close(): void {
    this.#closed = true;
    for (const [timer, end] of this.#waits) {
      clearTimeout(timer);
      end();
    }
    this.#waits.clear();
  }

  async #notify(sid: string, client: LoggedInClient): Promise<void> {
    const settings = await this.clients.settings(client.clientId);
    if (!settings.backchannelLogoutUri) return;
    const token = await this.#logoutToken(sid, client);
    for (let attempt = 1; attempt <= ATTEMPTS && !this.#closed; attempt++) {
      if (await this.#post(settings.backchannelLogoutUri, token)) return;
      if (attempt < ATTEMPTS) await this.#wait(FIRST_RETRY_MS * 2 ** (attempt - 1));
    }
    this.logger.warn({ clientId: client.clientId }, 'back-channel logout not delivered');
  }

  /** §2.4: iss, aud, iat, exp, jti, sub, sid and the events claim; never a nonce. */
  async #logoutToken(sid: string, client: LoggedInClient): Promise<string> {
    const signing = await this.signer.currentKey();
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    const header = encodeHeader({ alg: signing.algorithm, typ: 'logout+jwt', kid: signing.kid });
    return signCompact(signing, header, {
      iss: this.#issuer,
      aud: client.clientId,
      iat,
      exp: iat + 120,
      jti: randomUUID(),
      sub: String(client.userId),
      sid,
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
