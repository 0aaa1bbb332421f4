import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { exportJWK, importPKCS8, importSPKI, type JWK } from 'jose';
import type { TollgateConfig } from '../../core/config.js';
import { ConfigurationError } from '../../core/errors.js';
import { ConfigKey } from '../../core/keys.js';
import type { SigningAlgorithm } from '../config.js';
import { keyPaths, readKeys } from './key-files.js';
import { previousKeysPath, readPreviousKeys } from './previous-keys.js';
import { kidOf } from './rotation.js';

type Key = Awaited<ReturnType<typeof importPKCS8>>;

/** A public key that verifies tokens: the current one or a previous one. */
export interface VerificationKey {
  algorithm: SigningAlgorithm;
  /** RFC 7638 thumbprint of the public key, the JWS `kid`. */
  kid: string;
  /** For jose. */
  publicKey: Key;
  /** For `node:crypto` (the verifier's fast path). */
  verifyKey: KeyObject;
  publicJwk: JWK;
}

/** The current signing key (its fields at the top, as before rotation existed) and every verification key. */
export interface LoadedKeys extends VerificationKey {
  privateKey: Key;
  /** The private key for `node:crypto` (the access-token signer signs without jose). */
  signingKey: KeyObject;
  /** The current key first, then the previous keys, newest retired first. */
  keys: readonly VerificationKey[];
  /** Environment keys are one key and never reload. */
  source: 'environment' | 'files';
}

/** How often a signing server looks for a rotation (one `stat` of each key file). */
const SIGNER_CHECK_MS = 5_000;
/** The least time between two checks asked for by unknown `kid`s. */
const MIN_CHECK_MS = 1_000;

/**
 * The signing keys, read and imported once (importing a PEM costs as much as several signatures),
 * from `OAUTH_PRIVATE_KEY`/`OAUTH_PUBLIC_KEY` (one key) or from `storage/oauth-private.key` and
 * the previous keys `tollgate keys:rotate` kept in `storage/oauth-previous-keys.json`. A server
 * notices a rotation by the files' modification: within seconds while it signs, at once when the
 * JWKS is fetched or a token carries a `kid` it does not know.
 */
export class SigningKeys {
  static inject = [ConfigKey] as const;
  #loading: Promise<LoadedKeys> | undefined;
  /** The key files' stamp the loaded keys were read under. */
  #stamp = '';
  #checkedAt = Number.NEGATIVE_INFINITY;
  #loadedAt = Number.NEGATIVE_INFINITY;
  #checking: Promise<LoadedKeys> | undefined;
  /** Bumped by `reset`: a check that started before must not install what it read. */
  #generation = 0;

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
    this.#stamp = '';
    this.#generation++;
  }

  /**
   * Reads the keys again if their files changed since they were loaded; `force` skips the rate
   * limit. The loaded keys stay in use until the new ones are imported.
   */
  refresh(options: { force?: boolean } = {}): Promise<LoadedKeys> {
    if (this.#fromEnvironment) return this.load();
    const now = performance.now();
    if (!options.force && now - this.#checkedAt < MIN_CHECK_MS) return this.load();
    this.#checkedAt = now;
    this.#checking ??= this.#check().finally(() => {
      this.#checking = undefined;
    });
    return this.#checking;
  }

  /** Called on every signature: starts a check in the background every few seconds. */
  refreshSoon(): void {
    const last = Math.max(this.#checkedAt, this.#loadedAt);
    if (this.#fromEnvironment || performance.now() - last < SIGNER_CHECK_MS) return;
    this.refresh().catch(() => {
      // The keys in memory stay in use; the next check tries again.
    });
  }

  /** The key with this `kid`, after one look at the files if it is not loaded. */
  async find(kid: string | undefined): Promise<VerificationKey | undefined> {
    const loaded = await this.load();
    if (kid === undefined) return loaded;
    const known = loaded.keys.find((key) => key.kid === kid);
    if (known) return known;
    return (await this.refresh()).keys.find((key) => key.kid === kid);
  }

  /** The JSON Web Key Set that resource servers fetch: the current key, then the previous ones. */
  async jwks(): Promise<{ keys: JWK[] }> {
    const loaded = await this.refresh({ force: true });
    return { keys: loaded.keys.map((key) => key.publicJwk) };
  }

  get #fromEnvironment(): boolean {
    return Boolean(this.config.oauth.privateKey && this.config.oauth.publicKey);
  }

  async #check(): Promise<LoadedKeys> {
    const generation = this.#generation;
    const stamp = await this.#readStamp();
    if (this.#loading && stamp === this.#stamp) return this.#loading;
    const fresh = await this.#import(stamp);
    if (generation !== this.#generation) return this.load();
    this.#loading = Promise.resolve(fresh);
    return fresh;
  }

  async #readStamp(): Promise<string> {
    const { storagePath } = this.config;
    const files = [keyPaths(storagePath).privateKey, previousKeysPath(storagePath)];
    const stamps = await Promise.all(
      files.map((file) =>
        stat(file).then(
          (s) => `${s.ino}:${s.size}:${s.mtimeMs}`,
          () => '-',
        ),
      ),
    );
    return stamps.join('|');
  }

  async #import(stamp?: string): Promise<LoadedKeys> {
    const { oauth, storagePath } = this.config;
    const fromEnvironment = this.#fromEnvironment;
    const readingStamp = stamp ?? (fromEnvironment ? '' : await this.#readStamp());
    const pair = readKeys({ privateKey: oauth.privateKey, publicKey: oauth.publicKey, storagePath });
    if (!pair) {
      throw new ConfigurationError(
        'The OAuth signing keys are missing: run `tollgate install` (or `tollgate keys`), or set OAUTH_PRIVATE_KEY and OAUTH_PUBLIC_KEY.',
      );
    }
    const algorithm = oauth.signingAlgorithm;
    let privateKey: Key;
    let signingKey: KeyObject;
    let current: VerificationKey;
    try {
      privateKey = await importPKCS8(pair.privateKey, algorithm);
      signingKey = createPrivateKey(pair.privateKey);
      // The public half from the private key itself: a rotation replaces both files, and a
      // reader between the two renames must not pair a new private key with an old public one.
      const publicPem = createPublicKey(signingKey).export({ type: 'spki', format: 'pem' }).toString();
      current = await verificationKey(algorithm, publicPem);
    } catch (err) {
      throw new ConfigurationError(
        `The OAuth keys cannot be used with ${algorithm}: ${(err as Error).message}. Regenerate them with \`tollgate keys\`.`,
      );
    }
    const previous = fromEnvironment ? [] : await this.#previous(current.kid);
    this.#stamp = readingStamp;
    this.#loadedAt = performance.now();
    return {
      ...current,
      privateKey,
      signingKey,
      keys: [current, ...previous],
      source: fromEnvironment ? 'environment' : 'files',
    };
  }

  async #previous(currentKid: string): Promise<VerificationKey[]> {
    const keys: VerificationKey[] = [];
    for (const key of readPreviousKeys(this.config.storagePath)) {
      try {
        const loaded = await verificationKey(key.algorithm, key.publicKey);
        if (loaded.kid !== currentKid) keys.push(loaded);
      } catch (err) {
        throw new ConfigurationError(
          `The previous signing key ${key.kid} cannot be read: ${(err as Error).message}.`,
        );
      }
    }
    return keys;
  }
}

async function verificationKey(algorithm: SigningAlgorithm, pem: string): Promise<VerificationKey> {
  const publicKey = await importSPKI(pem, algorithm, { extractable: true });
  const verifyKey = createPublicKey(pem);
  const kid = await kidOf(verifyKey);
  const jwk = await exportJWK(publicKey);
  return { algorithm, kid, publicKey, verifyKey, publicJwk: { ...jwk, kid, alg: algorithm, use: 'sig' } };
}
