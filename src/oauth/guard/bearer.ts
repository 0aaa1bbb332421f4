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

/** RFC 9449 §7.1 `DPoP token68` (scheme case-insensitive); undefined for anything else. */
export function dpopToken(header: string | undefined): string | undefined {
  if (header === undefined || header.length < 6 || header[4] !== ' ') return undefined;
  return header.slice(0, 4).toLowerCase() === 'dpop' ? header.slice(5).trim() : undefined;
}

/** The access token of either scheme. */
export function accessTokenOf(header: string | undefined): string | undefined {
  return bearerToken(header) ?? dpopToken(header);
}
