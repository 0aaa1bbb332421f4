import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OAuthError, oauthErrorStatus } from './errors.js';

describe('OAuthError', () => {
  it('docs/oauth.md lists every code with its status, and nothing else', () => {
    const doc = readFileSync(join(import.meta.dirname, '../../docs/oauth.md'), 'utf8');
    const table = doc.slice(doc.indexOf('<!-- oauth-error-codes'));
    const rows = [...table.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]);
    expect(Object.fromEntries(rows)).toEqual(oauthErrorStatus);
  });

  it('RFC 6749 §5.2: the body has error and error_description; 5xx hides the detail', () => {
    const err = OAuthError.invalidGrant('The code has expired.', 'code abc expired at …');
    expect(err.toJSON()).toEqual({ error: 'invalid_grant', error_description: 'The code has expired.' });
    expect(err.status).toBe(400);
    expect(JSON.stringify(err.body)).not.toContain('abc');
    const server = new OAuthError('server_error', 'database exploded at host db-1');
    expect(server.toJSON().error_description).not.toContain('db-1');
    expect(server.status).toBe(500);
  });

  it('invalid_client is 401 with a Basic challenge and is not redirectable', () => {
    const err = OAuthError.invalidClient('bad secret');
    expect(err.status).toBe(401);
    expect(err.headers['WWW-Authenticate']).toMatch(/^Basic/);
    expect(err.redirectable).toBe(false);
    expect(OAuthError.accessDenied().redirectable).toBe(true);
  });

  it('RFC 6749 §4.1.2.1: error_description keeps to %x20-21 / %x23-5B / %x5D-7E, in the body and the challenge', () => {
    const err = OAuthError.invalidRequest('The "token" parameter\\ is \u0000missing\r\n é.');
    expect(err.description).toBe("The 'token' parameter is missing .");
    const challenged = OAuthError.insufficientScope('read');
    expect(challenged.headers['WWW-Authenticate']).toBe(
      'Bearer error="insufficient_scope", error_description="The access token lacks a required scope.", scope="read"',
    );
  });
});
