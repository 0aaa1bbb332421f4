import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Users } from '../../src/auth/users.js';
import { Browser } from '../auth/browser.js';
import { ANY_ENGINE } from '../support/engines.js';
import { type AccountsTestApp, accountsApp } from './support.js';

const ROUNDS = 20;
const ANSWER_MS = 150;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe('a reset request takes as long for an address with an account as for one without', () => {
  let t: AccountsTestApp;

  beforeAll(async () => {
    const many = { points: 10_000, durationSeconds: 3600 };
    t = await accountsApp({
      engine: ANY_ENGINE,
      config: { accounts: { passwordReset: { email: many, address: many, answerMs: ANSWER_MS } } },
    });
    await t.app.container
      .make(Users)
      .create({ name: 'Ada', email: 'ada@example.com', password: 'correct horse battery' });
  });
  afterAll(() => t?.close());

  // Queuing the mail (a link row and an outbox row, committed) costs a few ms more than finding no
  // account: every answer waits for the floor instead. Timing on a shared machine is noisy, so the
  // comparison is of paired requests and loose; the floor itself is exact.
  it('interleaved known and unknown addresses: both wait for the floor, paired times within 10%, mail only to the known one', async () => {
    const browser = new Browser(t);
    const token = await browser.csrfToken('/forgot-password');
    const timed = async (email: string) => {
      const started = performance.now();
      const res = await browser.post('/forgot-password', { _token: token, email });
      expect(res.status).toBe(303);
      return performance.now() - started;
    };
    for (let i = 0; i < 4; i++) await timed(i % 2 ? 'ada@example.com' : 'nobody@example.com');
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      known.push(await timed('ada@example.com'));
      unknown.push(await timed('nobody@example.com'));
    }
    expect(Math.min(...known, ...unknown)).toBeGreaterThanOrEqual(ANSWER_MS - 1);
    const gap = median(known.map((k, i) => k - unknown[i]!));
    expect(Math.abs(gap) / median(unknown), `known minus unknown: ${gap} ms`).toBeLessThan(0.1);
    await t.mailbox.waitFor('ada@example.com');
    expect(t.mailbox.to('nobody@example.com')).toEqual([]);
  });
});
