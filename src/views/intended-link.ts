/** `path` carrying a checked `intended` path along (login ↔ registration keep the way back). */
export function withIntended(path: string, intended: string | undefined): string {
  return intended ? `${path}?${new URLSearchParams({ intended })}` : path;
}
