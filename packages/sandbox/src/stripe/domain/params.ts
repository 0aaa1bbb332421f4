import { StripeSandboxError } from '../objects/errors.js';

/** Request parameters as parsed from a form or JSON body (`routes/form.ts`). */
export type RawParams = Record<string, unknown>;

/** Typed reads over parsed params, failing with Stripe's `invalid_request_error` on a bad value. */
export class Params {
  constructor(readonly raw: RawParams) {}

  has(key: string): boolean {
    return this.raw[key] !== undefined;
  }

  /** True when the param was sent empty (`key=`): Stripe's way to clear an `Emptyable` field. */
  isEmpty(key: string): boolean {
    return this.raw[key] === '';
  }

  str(key: string): string | undefined {
    const value = this.raw[key];
    if (value === undefined) return undefined;
    // JSON bodies (accepted besides forms) carry numbers and booleans as such.
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    if (typeof value !== 'string') throw StripeSandboxError.invalid(`Invalid string: ${key}`, key);
    return value;
  }

  required(key: string): string {
    const value = this.str(key);
    if (value === undefined || value === '') throw StripeSandboxError.missingParam(key);
    return value;
  }

  int(key: string): number | undefined {
    const value = this.str(key);
    if (value === undefined || value === '') return undefined;
    if (!/^-?\d+$/.test(value)) {
      throw StripeSandboxError.invalid(`Invalid integer: ${value}`, key, 'parameter_invalid_integer');
    }
    return Number(value);
  }

  num(key: string): number | undefined {
    const value = this.str(key);
    if (value === undefined || value === '') return undefined;
    const n = Number(value);
    if (!Number.isFinite(n)) throw StripeSandboxError.invalid(`Invalid decimal: ${value}`, key);
    return n;
  }

  bool(key: string): boolean | undefined {
    const value = this.str(key);
    if (value === undefined || value === '') return undefined;
    if (value !== 'true' && value !== 'false')
      throw StripeSandboxError.invalid(`Invalid boolean: ${value}`, key);
    return value === 'true';
  }

  /** An array param, whether qs produced an array or (past its limits) an index-keyed object. */
  list(key: string): unknown[] {
    const value = this.raw[key];
    if (value === undefined || value === '') return [];
    if (Array.isArray(value)) return value;
    if (typeof value === 'object' && value !== null) return Object.values(value);
    return [value];
  }

  strings(key: string): string[] {
    return this.list(key).map((v) => {
      if (typeof v !== 'string') throw StripeSandboxError.invalid(`Invalid array of strings: ${key}`, key);
      return v;
    });
  }

  /** Nested objects (`items[0][price]`), each wrapped as Params. */
  objects(key: string): Params[] {
    return this.list(key).map((v) => {
      if (typeof v !== 'object' || v === null)
        throw StripeSandboxError.invalid(`Invalid object: ${key}`, key);
      return new Params(v as RawParams);
    });
  }

  /** A nested hash (`recurring[interval]=month`), wrapped as Params. */
  object(key: string): Params | undefined {
    const value = this.raw[key];
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw StripeSandboxError.invalid(`Invalid hash: ${key}`, key);
    }
    return new Params(value as RawParams);
  }

  metadata(): Record<string, string> | undefined {
    const value = this.raw.metadata;
    if (value === undefined) return undefined;
    if (value === '') return {};
    if (typeof value !== 'object' || value === null)
      throw StripeSandboxError.invalid('Invalid hash', 'metadata');
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(value)) if (v !== '') out[k] = String(v);
    return out;
  }

  expand(): string[] {
    return this.strings('expand');
  }

  /** A Unix timestamp or the literal `now`. */
  timestampOrNow(key: string, now: number): number | undefined {
    const value = this.str(key);
    if (value === undefined || value === '') return undefined;
    if (value === 'now') return now;
    return this.int(key);
  }
}

/** Merge metadata as Stripe does: a key set to '' is removed, others are set. */
export function mergeMetadata(current: Record<string, string>, raw: unknown): Record<string, string> {
  if (raw === '') return {};
  if (typeof raw !== 'object' || raw === null) return current;
  const out = { ...current };
  for (const [k, v] of Object.entries(raw)) {
    if (v === '') delete out[k];
    else out[k] = String(v);
  }
  return out;
}
