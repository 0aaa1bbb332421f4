import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InjectionKey } from '../core/container.js';

/**
 * The application key: 32 random bytes used to encrypt the `app_token` cookie and other sealed
 * values. From configuration (APP_KEY) when given, else `storage/app.key`, generated with mode 0600
 * on first start.
 */
/** Where the generated application key lives when APP_KEY is not set. */
export function appKeyPath(storagePath: string): string {
  return join(storagePath, 'app.key');
}

export function loadAppKey(configured: string, storagePath: string): Uint8Array {
  if (configured) return decodeKey(configured, 'APP_KEY');
  const file = appKeyPath(storagePath);
  if (existsSync(file)) return decodeKey(readFileSync(file, 'utf8').trim(), file);
  mkdirSync(storagePath, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, `base64:${key.toString('base64')}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return new Uint8Array(key);
}

function decodeKey(value: string, where: string): Uint8Array {
  const key = Buffer.from(value.replace(/^base64:/, ''), 'base64');
  if (key.length !== 32) throw new Error(`The application key in ${where} must be 32 bytes, base64-encoded.`);
  return new Uint8Array(key);
}

/** Container key for the application key's bytes. */
export const AppEncryptionKey = new InjectionKey<Uint8Array>('AppKey');
