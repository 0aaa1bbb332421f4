import { obj, type Params, str } from '../domain/params.js';

/**
 * Matches one advanced-search criterion as the SDK sends it (braintree/lib/braintree/advanced_search.js):
 * text `{ is, isNot, startsWith, endsWith, contains }`, multiple-value `[a, b]`, range `{ min, max, is }`.
 */
export function matches(criterion: unknown, value: string | number | null): boolean {
  if (Array.isArray(criterion)) return criterion.map(String).includes(String(value));
  const c = obj(criterion);
  if (typeof value === 'number') {
    const n = (k: string) => (str(c[k]) === null ? null : Number(c[k]));
    const min = n('min');
    const max = n('max');
    const is = n('is');
    return (min === null || value >= min) && (max === null || value <= max) && (is === null || value === is);
  }
  const v = (value ?? '').toLowerCase();
  const t = (k: string) => str(c[k])?.toLowerCase() ?? null;
  const is = t('is');
  const isNot = t('isNot');
  const starts = t('startsWith');
  const ends = t('endsWith');
  const contains = t('contains');
  if (
    value !== null &&
    typeof value === 'string' &&
    /^\d{4}-\d{2}-\d{2}/.test(value) &&
    ('min' in c || 'max' in c)
  ) {
    const at = Date.parse(value);
    const min = str(c.min);
    const max = str(c.max);
    return (min === null || at >= Date.parse(min)) && (max === null || at <= Date.parse(max));
  }
  return (
    (is === null || v === is) &&
    (isNot === null || v !== isNot) &&
    (starts === null || v.startsWith(starts)) &&
    (ends === null || v.endsWith(ends)) &&
    (contains === null || v.includes(contains))
  );
}

/** True when every criterion in `search` matches the record's field of the same (camelCased) name. */
export function matchesAll(search: Params, fields: Record<string, string | number | null>): boolean {
  for (const [key, criterion] of Object.entries(search)) {
    if (!(key in fields)) continue;
    if (!matches(criterion, fields[key] ?? null)) return false;
  }
  return true;
}

export const PAGE_SIZE = 50;
