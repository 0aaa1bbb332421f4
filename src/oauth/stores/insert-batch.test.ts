import { describe, expect, it } from 'vitest';
import { InsertBatch } from './insert-batch.js';

describe('InsertBatch (group commit)', () => {
  it('writes the rows added in one turn together, and settles each caller after the write', async () => {
    const writes: number[][] = [];
    const batch = new InsertBatch<number>(async (rows) => {
      writes.push([...rows]);
    });
    await Promise.all([batch.add(1), batch.add(2), batch.add(3)]);
    await batch.add(4);
    expect(writes).toEqual([[1, 2, 3], [4]]);
  });

  it('writes at once when the batch is full', async () => {
    const writes: number[][] = [];
    const batch = new InsertBatch<number>(async (rows) => {
      writes.push([...rows]);
    }, 2);
    await Promise.all([1, 2, 3, 4, 5].map((n) => batch.add(n)));
    expect(writes).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('retries a failed batch row by row, so only the bad row fails', async () => {
    const written: number[] = [];
    const batch = new InsertBatch<number>(async (rows) => {
      if (rows.includes(13)) throw new Error('constraint failed');
      written.push(...rows);
    });
    const results = await Promise.allSettled([batch.add(12), batch.add(13), batch.add(14)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('constraint failed'));
    expect(written.sort()).toEqual([12, 14]);
  });
});
