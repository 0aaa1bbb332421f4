import { EncryptJWT, jwtDecrypt } from 'jose';
import type { Clock } from '../../core/clock.js';
import type { TollgateConfig } from '../../core/config.js';
import { ClockKey, ConfigKey } from '../../core/keys.js';
import { AppEncryptionKey } from '../../kernel/app-key.js';

/** The JWE `typ`: a value sealed with the app key for another purpose is never read as an app_token. */
const TYP = 'app-token+jwt';

export interface AppTokenClaims {
  userId: number;
  /** The session's CSRF token when the cookie was made: the frontend must echo it in `X-CSRF-TOKEN`. */
  csrf: string;
}

/**
 * The `app_token` cookie's value: a JWT encrypted with the application key (JWE, `dir` +
 * `A256GCM`, RFC 7516/7518 §4.5, §5.3), so the browser holds it but nobody can read or forge it.
 * It names the user and the session's CSRF token and lives as long as a session.
 */
export class AppTokenCookie {
  static inject = [AppEncryptionKey, ConfigKey, ClockKey] as const;
  readonly name: string;
  readonly secure: boolean;
  readonly lifetimeSeconds: number;

  constructor(
    private readonly key: Uint8Array,
    config: TollgateConfig,
    private readonly clock: Clock,
  ) {
    this.name = config.oauth.cookieName;
    this.secure = new URL(config.app.url).protocol === 'https:';
    this.lifetimeSeconds = config.session.lifetimeMinutes * 60;
  }

  /** The cookie's attributes: HttpOnly (scripts never see it), SameSite=Lax, Secure under https. */
  get attributes() {
    return {
      path: '/',
      httpOnly: true,
      sameSite: 'Lax',
      secure: this.secure,
      maxAge: this.lifetimeSeconds,
    } as const;
  }

  seal(claims: AppTokenClaims): Promise<string> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    return new EncryptJWT({ csrf: claims.csrf })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', typ: TYP })
      .setSubject(String(claims.userId))
      .setIssuedAt(now)
      .setExpirationTime(now + this.lifetimeSeconds)
      .encrypt(this.key);
  }

  /** The claims of a cookie we made that has not expired (by the injected clock), else undefined. */
  async open(value: string): Promise<AppTokenClaims | undefined> {
    try {
      const { payload } = await jwtDecrypt(value, this.key, {
        keyManagementAlgorithms: ['dir'],
        contentEncryptionAlgorithms: ['A256GCM'],
        typ: TYP,
        currentDate: this.clock.now(),
        requiredClaims: ['sub', 'exp'],
      });
      const userId = Number(payload.sub);
      if (!Number.isSafeInteger(userId) || typeof payload.csrf !== 'string' || payload.csrf === '')
        return undefined;
      return { userId, csrf: payload.csrf };
    } catch {
      return undefined;
    }
  }
}
