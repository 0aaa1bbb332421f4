/** How long a mailed link works, in words: "24 hours", "1 hour", "90 minutes". */
export const linkLifetime = (minutes: number): string =>
  minutes % 60 === 0 ? `${minutes / 60} hour${minutes === 60 ? '' : 's'}` : `${minutes} minutes`;
