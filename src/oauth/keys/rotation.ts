import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { calculateJwkThumbprint, exportJWK } from 'jose';
import { ConfigurationError } from '../../core/errors.js';
import type { SigningAlgorithm } from '../config.js';
import { generateKeyPair, keyPaths, keysExist } from './key-files.js';
import { type PreviousKey, readPreviousKeys, writeAtomically, writePreviousKeys } from './previous-keys.js';

/** RFC 7638 thumbprint of a public key: the `kid` of the tokens its private half signs. */
export async function kidOf(publicKey: KeyObject): Promise<string> {
  return calculateJwkThumbprint(await exportJWK(publicKey));
}

/** The JWS algorithm a key belongs to, from its type. */
export function algorithmOf(key: KeyObject): SigningAlgorithm | undefined {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ed25519') return 'EdDSA';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ES256';
  return undefined;
}

export interface RotationResult {
  /** The new current key's `kid`. */
  kid: string;
  /** The key it replaced, now verification-only. */
  retired: PreviousKey;
}

/**
 * `tollgate keys:rotate`: the current key joins the previous keys (public half only), then a new
 * key pair in `algorithm` becomes current. In that order, so that a crash in between leaves every
 * issued token verifiable. Both files are replaced by rename: a server reading them meanwhile
 * sees the old key or the new one.
 */
export async function rotateKeys(
  storagePath: string,
  algorithm: SigningAlgorithm,
  options: { now: Date; rsaBits?: number },
): Promise<RotationResult> {
  if (!keysExist(storagePath)) {
    throw new ConfigurationError('There is no signing key to rotate yet: run `tollgate install` first.');
  }
  const paths = keyPaths(storagePath);
  const current = createPublicKey(createPrivateKey(readFileSync(paths.privateKey, 'utf8')));
  const currentAlgorithm = algorithmOf(current);
  if (!currentAlgorithm)
    throw new ConfigurationError(`${paths.privateKey} is not an RSA, P-256 or Ed25519 key.`);
  const retired: PreviousKey = {
    kid: await kidOf(current),
    algorithm: currentAlgorithm,
    publicKey: current.export({ type: 'spki', format: 'pem' }).toString(),
    retiredAt: options.now.toISOString(),
  };
  const previous = readPreviousKeys(storagePath).filter((key) => key.kid !== retired.kid);
  writePreviousKeys(storagePath, [retired, ...previous]);

  const pair = generateKeyPair(algorithm, options.rsaBits);
  writeAtomically(paths.privateKey, pair.privateKey, 0o600);
  writeAtomically(paths.publicKey, pair.publicKey, 0o644);
  return { kid: await kidOf(createPublicKey(pair.publicKey)), retired };
}

export interface PruneResult {
  dropped: PreviousKey[];
  kept: PreviousKey[];
}

/**
 * `tollgate keys:prune`: drops the previous keys no live (unexpired, unrevoked) access token was
 * signed with. `kidsInUse` are the `kid`s of live tokens; `null` among them stands for tokens
 * issued before Tollgate recorded kids, which keep the oldest previous key (the key that was
 * current before the first rotation). A key retired less than `graceSeconds` ago is kept too: a
 * server may not have noticed the rotation yet and still sign with it.
 */
export function pruneKeys(
  storagePath: string,
  options: { kidsInUse: readonly (string | null)[]; now: Date; graceSeconds: number },
): PruneResult {
  const previous = readPreviousKeys(storagePath);
  const inUse = new Set(options.kidsInUse);
  const oldest = previous.at(-1)?.kid;
  const recent = new Date(options.now.getTime() - options.graceSeconds * 1000).toISOString();
  const keep = (key: PreviousKey) =>
    inUse.has(key.kid) || key.retiredAt > recent || (inUse.has(null) && key.kid === oldest);
  const kept = previous.filter(keep);
  const dropped = previous.filter((key) => !keep(key));
  if (dropped.length > 0) writePreviousKeys(storagePath, kept);
  return { dropped, kept };
}
