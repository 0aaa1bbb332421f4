/**
 * How long to keep a document (RFC 9111 §5.2.2): its `max-age`, within the operator's bounds;
 * `no-store` and `no-cache` keep it for the minimum (a floor, so a client cannot make every
 * request fetch); no header, the default.
 */
export function cacheSeconds(header: string, bounds: { default: number; min: number; max: number }): number {
  const directives = header
    .toLowerCase()
    .split(',')
    .map((part) => part.trim());
  let seconds = bounds.default;
  if (directives.includes('no-store') || directives.includes('no-cache')) seconds = bounds.min;
  else {
    const maxAge = directives.find((part) => part.startsWith('max-age='));
    const value = maxAge === undefined ? Number.NaN : Number(maxAge.slice('max-age='.length));
    if (Number.isInteger(value) && value >= 0) seconds = value;
  }
  return Math.min(bounds.max, Math.max(bounds.min, seconds));
}
