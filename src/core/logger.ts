import { type Logger, pino } from 'pino';
import { currentRequestId } from './request-context.js';

export type { Logger };

/** Paths pino blanks wherever they appear, so a secret never reaches a log line. */
export const redactedPaths = [
  'password',
  'secret',
  'client_secret',
  'access_token',
  'refresh_token',
  'accessToken',
  'token',
  'code',
  'code_verifier',
  'authorization',
  'cookie',
  'plainKey',
  '*.password',
  '*.secret',
  '*.client_secret',
  '*.access_token',
  '*.refresh_token',
  '*.accessToken',
  '*.token',
  '*.code_verifier',
  '*.authorization',
  '*.cookie',
  '*.plainKey',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  'headers["x-api-key"]',
  'headers["set-cookie"]',
];

/** Every line logged while a request runs carries its `request_id`. */
function requestIdMixin(): object {
  const id = currentRequestId();
  return id === undefined ? {} : { request_id: id };
}

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    { level, redact: { paths: redactedPaths, censor: '[redacted]' }, mixin: requestIdMixin },
    destination,
  );
}
