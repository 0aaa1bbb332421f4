import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OtherSessionsEnded, PasswordChanged } from '../../src/accounts/events.js';
import { Users } from '../../src/auth/users.js';
import { Browser, tokenIn } from '../auth/browser.js';
import { ANY_ENGINE } from '../support/engines.js';
import { type AccountsTestApp, accountsApp } from './support.js';

const OLD = 'correct horse battery';
const NEW = 'tr0ub4dor and three';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

describe('the account page over HTTP: password and sessions', () => {
  let t: AccountsTestApp;
  const raised: unknown[] = [];

  class Device extends Browser {
    constructor(private readonly agent: string) {
      super(t);
    }
    override request(path: string, init: RequestInit = {}) {
      const headers = new Headers(init.headers);
      headers.set('user-agent', this.agent);
      return super.request(path, { ...init, headers });
    }
  }

  const signIn = async (email: string, password = OLD, agent = FIREFOX) => {
    const device = new Device(agent);
    expect((await device.submit('/login', { email, password })).status).toBe(302);
    return device;
  };
  const post = async (device: Browser, path: string, fields: Record<string, string>, headers = {}) =>
    device.post(path, { _token: tokenIn(await (await device.get('/account')).text()), ...fields }, headers);
  const signedIn = async (device: Browser) => (await device.get('/account')).status === 200;

  beforeAll(async () => {
    t = await accountsApp({ engine: ANY_ENGINE });
    t.app.events.listen(PasswordChanged, (e) => void raised.push(e));
    t.app.events.listen(OtherSessionsEnded, (e) => void raised.push(e));
    const users = t.app.container.make(Users);
    for (const email of ['ada@example.com', 'bob@example.com', 'cy@example.com'])
      await users.create({ name: email.split('@')[0]!, email, password: OLD });
  });
  afterAll(() => t?.close());

  it('needs a signed-in user', async () => {
    const res = await new Browser(t).get('/account');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toContain('/login');
  });

  it('gives each field its own id, so every label names one input', async () => {
    await t.app.container.make(Users).create({ name: 'dee', email: 'dee@example.com', password: OLD });
    const html = await (await (await signIn('dee@example.com')).get('/account')).text();
    const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    const labelled = [...html.matchAll(/<label for="([^"]+)"/g)].map((m) => m[1]);
    expect(labelled.filter((id) => !ids.includes(id))).toEqual([]);
    expect(labelled.filter((id) => /current_password|current-password/.test(id ?? ''))).toHaveLength(3);
  });

  it('changes the password only with the current one, and ends the other sessions', async () => {
    const laptop = await signIn('ada@example.com');
    const phone = await signIn('ada@example.com', OLD, CHROME);

    const wrong = await post(laptop, '/account/password', {
      current_password: 'not it at all',
      password: NEW,
      password_confirmation: NEW,
    });
    expect(wrong.status).toBe(422);
    expect(await wrong.text()).toContain('The current password is incorrect.');
    const json = await post(
      laptop,
      '/account/password',
      { current_password: OLD, password: 'short', password_confirmation: 'other' },
      { accept: 'application/json' },
    );
    expect(json.status).toBe(422);
    expect((await json.json()).errors.password).toEqual([
      'The password field must be at least 8 characters.',
      'The password field confirmation does not match.',
    ]);
    expect(raised).toEqual([]);

    const changed = await post(laptop, '/account/password', {
      current_password: OLD,
      password: NEW,
      password_confirmation: NEW,
    });
    expect(changed.status).toBe(303);
    expect(changed.headers.get('location')).toBe('/account');
    expect(await (await laptop.get('/account')).text()).toContain('Your password has been changed.');
    expect(await signedIn(laptop)).toBe(true);
    expect(await signedIn(phone)).toBe(false);
    expect((await new Browser(t).submit('/login', { email: 'ada@example.com', password: OLD })).status).toBe(
      422,
    );
    await signIn('ada@example.com', NEW);
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ via: 'account', user: { email: 'ada@example.com' } });
  });

  it('a double-clicked password change sets the new password once over, and the user stays signed in', async () => {
    raised.length = 0;
    const laptop = await signIn('cy@example.com');
    const token = tokenIn(await (await laptop.get('/account')).text());
    const fields = { _token: token, current_password: OLD, password: NEW, password_confirmation: NEW };
    const answers = await Promise.all([
      laptop.post('/account/password', fields),
      laptop.post('/account/password', fields),
    ]);
    for (const res of answers) expect([303, 419]).toContain(res.status);
    expect(answers.some((res) => res.status === 303)).toBe(true);
    await signIn('cy@example.com', NEW);
  });

  it('lists the sessions with device, address and last seen, and signs out the others', async () => {
    raised.length = 0;
    const laptop = await signIn('bob@example.com');
    const phone = await signIn('bob@example.com', OLD, CHROME);
    const page = await (await laptop.get('/account')).text();
    expect(page).toContain('Firefox on Linux<strong> (this session)</strong>');
    expect(page).toContain('Chrome on macOS');
    expect(page).toMatch(/<time datetime="[^"]+">\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/time>/);

    const ended = await post(laptop, '/account/sessions/others', {});
    expect(ended.status).toBe(303);
    expect(await (await laptop.get('/account')).text()).toContain('Signed out 1 other session.');
    expect(await signedIn(phone)).toBe(false);
    expect(await signedIn(laptop)).toBe(true);
    expect(raised).toEqual([expect.objectContaining({ ended: 1 })]);
  });
});
