import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BillingError, billingErrorCodes } from '../../src/billing/errors.js';
import {
  type InvalidTokenReason,
  OAuthError,
  type OAuthErrorCode,
  oauthErrorStatus,
  UNAUTHENTICATED,
} from '../../src/oauth/errors.js';
import { catalogue, constructorNames, errorClassesInSource, root, unionMembers } from './doc.js';

type Statics = Record<string, unknown>;

/** Each named constructor (a static method) called with a placeholder, by the code it builds. */
function constructorsByCode(cls: object): Map<string, string[]> {
  const byCode = new Map<string, string[]>();
  for (const name of Object.getOwnPropertyNames(cls)) {
    const fn = (cls as Statics)[name];
    if (typeof fn !== 'function') continue;
    const built = (fn as (arg: string) => unknown).call(cls, 'x');
    const code = (built as { code?: unknown }).code;
    expect(typeof code, `${name}() builds an error with a code`).toBe('string');
    byCode.set(code as string, [...(byCode.get(code as string) ?? []), name].sort());
  }
  return byCode;
}

describe('docs/errors.md against the code', () => {
  it('OAuth (RFC 6749 §5.2, RFC 6750 §3.1): every code with the status of oauthErrorStatus, nothing else', () => {
    const rows = catalogue('oauth');
    const documented = Object.fromEntries(rows.map(([code, status]) => [code, Number(status)]));
    expect(documented).toEqual(oauthErrorStatus);
    expect(rows).toHaveLength(Object.keys(oauthErrorStatus).length); // no code listed twice
  });

  it('OAuth: the constructor column names the static constructors that build each code', () => {
    const built = constructorsByCode(OAuthError);
    for (const [code, , ctor] of catalogue('oauth')) {
      expect(constructorNames(ctor!), code).toEqual(built.get(code!) ?? []);
    }
  });

  it('OAuth: getResponse() renders every code with its status, no-store, RFC 6749 §5.2 or RFC 6750 §3 bodies; 5xx generic', async () => {
    const shapes: Partial<Record<OAuthErrorCode, string[]>> = {
      invalid_token: ['message'],
      insufficient_scope: ['error', 'error_description', 'message', 'scope'],
    };
    for (const code of Object.keys(oauthErrorStatus) as OAuthErrorCode[]) {
      const res = new OAuthError(code, 'secret detail from db-1').getResponse();
      const text = await res.text();
      expect(res.status, code).toBe(oauthErrorStatus[code]);
      expect(Object.keys(JSON.parse(text)).sort(), code).toEqual(
        shapes[code] ?? ['error', 'error_description'],
      );
      expect(res.headers.get('Cache-Control')).toBe('no-store');
      if (res.status >= 500) expect(text).not.toContain('db-1');
    }
  });

  it('Billing: every code of billingErrorCodes with its status, nothing else', () => {
    const rows = catalogue('billing');
    const documented = Object.fromEntries(rows.map(([code, status]) => [code, Number(status)]));
    const actual = Object.fromEntries(
      billingErrorCodes.map((code) => [code, new BillingError(code, 'message').status]),
    );
    expect(documented).toEqual(actual);
    expect(rows).toHaveLength(billingErrorCodes.length);
  });

  it('Billing: the constructor column names the named constructors, and every code has one', () => {
    const built = constructorsByCode(BillingError);
    for (const [code, , ctor] of catalogue('billing')) {
      expect(constructorNames(ctor!), code).toEqual(built.get(code!) ?? []);
    }
    expect([...built.keys()].sort()).toEqual([...billingErrorCodes].sort());
  });

  it('Billing: a 4xx renders { message, code }; a 5xx has no body of its own (generic)', () => {
    for (const code of billingErrorCodes) {
      const err = new BillingError(code, 'Your card was declined.');
      if (err.status < 500) expect(err.body).toEqual({ message: 'Your card was declined.', code });
      else expect([err.body, err.expose]).toEqual([undefined, false]);
    }
  });

  it('RFC 6750 §3: the api guard table matches InvalidTokenReason and the challenges getResponse() sends', async () => {
    const rows = catalogue('guard');
    expect(rows.map(([reason]) => reason).sort()).toEqual(
      unionMembers('src/oauth/errors.ts', 'InvalidTokenReason'),
    );
    for (const [reason, status, challenge] of rows) {
      const res = OAuthError.invalidToken({ reason: reason as InvalidTokenReason }).getResponse();
      expect([res.status, res.headers.get('WWW-Authenticate')], reason).toEqual([Number(status), challenge]);
      expect(res.headers.get('Cache-Control')).toBe('no-store');
      expect(await res.json()).toEqual({ message: UNAUTHENTICATED });
    }
  });

  it('lists every exported error class under src/, in its file, and no class that is gone', async () => {
    const rows = catalogue('classes');
    const documented = new Map(rows.map(([name, file]) => [name!, file!]));
    expect(Object.fromEntries(documented)).toEqual(Object.fromEntries(errorClassesInSource()));
    for (const [name, file] of documented) {
      const mod = (await import(join(root, file))) as Record<string, unknown>;
      const cls = mod[name] as { prototype?: unknown } | undefined;
      expect(cls?.prototype instanceof Error, `${name} is an Error exported by ${file}`).toBe(true);
    }
  });
});
