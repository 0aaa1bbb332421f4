import { type MockInstance, vi } from 'vitest';

type Call = (...args: unknown[]) => Promise<unknown>;
/** The names of `T`'s async methods, whatever their parameters. */
type AsyncMethodOf<T> = {
  [K in keyof T]: T[K] extends (...args: never[]) => Promise<unknown> ? K : never;
}[keyof T] &
  string;

/**
 * Holds each call of `object[method]`, once it has its answer, until two calls have theirs. Two
 * requests sent at once then both find the record before either of them deletes it: the race, on
 * every run and either engine, rather than when the scheduler happens to interleave them so.
 * `mockRestore()` the returned spy once the requests have answered.
 */
export function holdUntilBoth<T extends object>(object: T, method: AsyncMethodOf<T>): MockInstance {
  const original = object[method] as unknown as Call;
  let arrived = 0;
  let release = () => {};
  const both = new Promise<void>((resolve) => {
    release = resolve;
  });
  const held = async function (this: T, ...args: unknown[]): Promise<unknown> {
    const answer = await original.apply(this, args);
    if (++arrived === 2) release();
    await both;
    return answer;
  };
  return vi.spyOn(object as unknown as Record<string, Call>, method).mockImplementation(held);
}
