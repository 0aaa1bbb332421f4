import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CREDENTIALS_MISMATCH } from '../../src/auth/controllers/login-controller.js';
import { verifyPassword } from '../../src/auth/password.js';
import type { TestApp } from '../support/app.js';
import { ENGINES } from '../support/engines.js';
import { Browser } from './browser.js';
import { ADA, authApp } from './fixture.js';

// Every password check goes through verifyPassword: its calls are the argon2 verifications the
// login ran, whatever the timing (no clock in this test).
vi.mock('../../src/auth/password.js', async (original) => {
  const real = await original<typeof import('../../src/auth/password.js')>();
  return { ...real, verifyPassword: vi.fn(real.verifyPassword) };
});
const verified = () => vi.mocked(verifyPassword).mock.calls;

/**
 * A login costs one argon2 verification whatever the address names — an account, no account, or
 * an account without a password (made through an upstream provider) — so its time does not tell
 * which.
 */
describe.each(ENGINES)('a login does the same work for every address (%s)', (engine) => {
  let t: TestApp;
  let browser: Browser;

  beforeEach(async () => {
    t = await authApp({ engine });
    browser = new Browser(t);
    vi.mocked(verifyPassword).mockClear();
  });
  afterEach(() => t.close());

  const logIn = async (email: string, password: string) => {
    const res = await browser.submit('/login', { email, password });
    return { status: res.status, html: await res.text() };
  };

  it('a wrong password for an account: one argon2 verification against its hash', async () => {
    const answer = await logIn(ADA.email, 'not the password');
    expect(answer.status).toBe(422);
    expect(verified()).toHaveLength(1);
    expect(verified()[0]![0]).toMatch(/^\$argon2id\$/);
  });

  it('an unknown address: one argon2 verification against a dummy hash, the same answer', async () => {
    const answer = await logIn('nobody@example.com', 'any password at all');
    expect(answer.status).toBe(422);
    expect(answer.html).toContain(CREDENTIALS_MISMATCH);
    expect(verified()).toHaveLength(1);
    expect(verified()[0]![0]).toMatch(/^\$argon2id\$/);
    expect(verified()[0]![1]).toBe('any password at all');
  });

  it('an account without a password: one argon2 verification against the dummy hash, refused', async () => {
    await t.app.db.updateTable('users').set({ password: '' }).where('email', '=', ADA.email).execute();
    const answer = await logIn(ADA.email, '');
    // An empty password is refused by validation before any account is looked up, for every address.
    expect(answer.status).toBe(422);
    expect(verified()).toHaveLength(0);

    const guessed = await logIn(ADA.email, 'a guess');
    expect(guessed.status).toBe(422);
    expect(guessed.html).toContain(CREDENTIALS_MISMATCH);
    expect(verified()).toHaveLength(1);
    expect(verified()[0]![0]).toMatch(/^\$argon2id\$/);
  });
});
