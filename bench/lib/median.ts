/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('No median of no values.');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** `median`, or undefined when there are no values (a figure that was not read). */
export const medianOf = (values: readonly (number | undefined)[]): number | undefined => {
  const read = values.filter((value): value is number => value !== undefined);
  return read.length === 0 ? undefined : median(read);
};
