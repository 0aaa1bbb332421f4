import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigurationError } from '../../core/errors.js';
import type { SigningAlgorithm } from '../config.js';

/**
 * A signing key that is no longer current: only its public half is kept, so tokens it signed
 * verify until they expire (and `tollgate keys:prune` drops it).
 */
export interface PreviousKey {
  /** RFC 7638 thumbprint: the `kid` in the header of the tokens it signed. */
  kid: string;
  algorithm: SigningAlgorithm;
  /** SPKI PEM. */
  publicKey: string;
  /** When `tollgate keys:rotate` replaced it (ISO-8601). */
  retiredAt: string;
}

const ALGORITHMS: readonly string[] = ['RS256', 'ES256', 'EdDSA'];

export function previousKeysPath(storagePath: string): string {
  return join(storagePath, 'oauth-previous-keys.json');
}

/** The previous keys, newest retired first; none when the file does not exist. */
export function readPreviousKeys(storagePath: string): PreviousKey[] {
  const path = previousKeysPath(storagePath);
  if (!existsSync(path)) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigurationError(`${path} is not valid JSON: ${(err as Error).message}`);
  }
  const keys = (parsed as { keys?: unknown })?.keys;
  if (!Array.isArray(keys) || !keys.every(isPreviousKey)) {
    throw new ConfigurationError(`${path} does not hold a list of previous signing keys.`);
  }
  return [...keys].sort((a, b) => b.retiredAt.localeCompare(a.retiredAt));
}

function isPreviousKey(value: unknown): value is PreviousKey {
  const key = value as Partial<PreviousKey> | null;
  return (
    typeof key?.kid === 'string' &&
    typeof key.publicKey === 'string' &&
    typeof key.retiredAt === 'string' &&
    ALGORITHMS.includes(key.algorithm as string)
  );
}

/** Replaces the list in one rename, owner-readable only (0600); an empty list removes the file. */
export function writePreviousKeys(storagePath: string, keys: readonly PreviousKey[]): void {
  const path = previousKeysPath(storagePath);
  if (keys.length === 0) {
    rmSync(path, { force: true });
    return;
  }
  writeAtomically(path, `${JSON.stringify({ keys }, null, 2)}\n`, 0o600);
}

/**
 * Writes through a temporary file in the same folder and renames it over `path`, so a server
 * reading the file sees the old content or the new one, never half of it.
 */
export function writeAtomically(path: string, content: string, mode: number): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temporary, content, { mode, flag: 'wx' });
  renameSync(temporary, path);
}
