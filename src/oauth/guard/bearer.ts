/** RFC 6750 §2.1 `Bearer b64token` (the scheme is case-insensitive, RFC 7235 §2.1); undefined for anything else. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (header.startsWith('Bearer ')) return header.slice(7).trim();
  if (
    header.length >= 6 &&
    header.slice(0, 6).toLowerCase() === 'bearer' &&
    (header.length === 6 || header[6] === ' ')
  )
    return header.slice(7).trim();
  return undefined;
}
