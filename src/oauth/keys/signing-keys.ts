import { createPrivateKey, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, importPKCS8, importSPKI, type JWK } from 'jose';
import type { TollgateConfig } from '../../core/config.js';
import { ConfigurationError } from '../../core/errors.js';
import { ConfigKey } from '../../core/keys.js';
import type { SigningAlgorithm } from '../config.js';
import { readKeys } from './key-files.js';

type Key = Awaited<ReturnType<typeof importPKCS8>>;

export interface LoadedKeys {
  algorithm: SigningAlgorithm;
  privateKey: Key;
  /** The private key for `node:crypto` (the access-token signer signs without jose). */
  signingKey: KeyObject;
  publicKey: Key;
  /** RFC 7638 thumbprint of the public key, the JWS `kid`. */
  kid: string;
  publicJwk: JWK;
}

/**
 * The signing key pair, read and imported once (importing a PEM costs as much as several
 * signatures), from `OAUTH_PRIVATE_KEY`/`OAUTH_PUBLIC_KEY` or `storage/oauth-*.key`.
 */
export class SigningKeys {
  static inject = [ConfigKey] as const;
  #loading: Promise<LoadedKeys> | undefined;

  constructor(private readonly config: TollgateConfig) {}

  get algorithm(): SigningAlgorithm {
    return this.config.oauth.signingAlgorithm;
  }

  load(): Promise<LoadedKeys> {
    this.#loading ??= this.#import().catch((err: unknown) => {
      this.#loading = undefined;
      throw err;
    });
    return this.#loading;
  }

  /** Forgets the imported keys (after `tollgate keys` in the same process, or in tests). */
  reset(): void {
    this.#loading = undefined;
  }

  async #import(): Promise<LoadedKeys> {
    const { oauth, storagePath } = this.config;
    const pair = readKeys({ privateKey: oauth.privateKey, publicKey: oauth.publicKey, storagePath });
    if (!pair) {
      throw new ConfigurationError(
        'The OAuth signing keys are missing: run `tollgate install` (or `tollgate keys`), or set OAUTH_PRIVATE_KEY and OAUTH_PUBLIC_KEY.',
      );
    }
    const algorithm = oauth.signingAlgorithm;
    let privateKey: Key;
    let publicKey: Key;
    let signingKey: KeyObject;
    try {
      privateKey = await importPKCS8(pair.privateKey, algorithm);
      signingKey = createPrivateKey(pair.privateKey);
      publicKey = await importSPKI(pair.publicKey, algorithm, { extractable: true });
    } catch (err) {
      throw new ConfigurationError(
        `The OAuth keys cannot be used with ${algorithm}: ${(err as Error).message}. Regenerate them with \`tollgate keys\`.`,
      );
    }
    const jwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(jwk);
    return {
      algorithm,
      privateKey,
      signingKey,
      publicKey,
      kid,
      publicJwk: { ...jwk, kid, alg: algorithm, use: 'sig' },
    };
  }

  /** The JSON Web Key Set that resource servers fetch to verify our access tokens. */
  async jwks(): Promise<{ keys: JWK[] }> {
    return { keys: [(await this.load()).publicJwk] };
  }
}
