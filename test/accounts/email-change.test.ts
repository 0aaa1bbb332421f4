import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmailChanged } from '../../src/accounts/events.js';
import { Users } from '../../src/auth/users.js';
import { Browser, tokenIn } from '../auth/browser.js';
import { ENGINES } from '../support/engines.js';
import { type AccountsTestApp, accountsApp } from './support.js';

const PASSWORD = 'correct horse battery';
const linkIn = (text: string) => /http:\/\/localhost(\/account\/email\/confirm\?token=([\w-]+))/.exec(text);

describe.each(ENGINES)(
  'changing the e-mail address over HTTP, confirmed at the new address (%s)',
  (engine) => {
    let t: AccountsTestApp;
    const changed: EmailChanged[] = [];

    const signIn = async (email: string) => {
      const b = new Browser(t);
      expect((await b.submit('/login', { email, password: PASSWORD })).status).toBe(302);
      return b;
    };
    const ask = async (b: Browser, email: string, password = PASSWORD) =>
      b.post('/account/email', {
        _token: tokenIn(await (await b.get('/account')).text()),
        email,
        current_password: password,
      });
    /** The path and token of the n-th change link mailed to `to`. */
    const link = async (to: string, nth = 0) => {
      await t.mailbox.waitFor(to, () => t.mailbox.to(to).length > nth);
      const [, path, token] = linkIn(t.mailbox.to(to)[nth]!.text ?? '')!;
      return { path: path!, token: token! };
    };
    const confirm = async (b: Browser, l: { path: string; token: string }) => {
      const page = await b.get(l.path);
      if (page.status !== 200) return page;
      return b.post('/account/email/confirm', { _token: tokenIn(await page.text()), token: l.token });
    };
    const emailOf = async (id: number) => (await t.app.container.make(Users).find(id))?.email;

    beforeAll(async () => {
      t = await accountsApp({ engine });
      t.app.events.listen(EmailChanged, (e) => void changed.push(e));
      const users = t.app.container.make(Users);
      for (const email of ['ada@example.com', 'bob@example.com', 'cy@example.com'])
        await users.create({ name: email.split('@')[0]!, email, password: PASSWORD });
    });
    afterAll(() => t?.close());

    it('mails the new address; the change takes effect on confirming there, verified, and the old address is told', async () => {
      const ada = await signIn('ada@example.com');
      const id = (await t.app.container.make(Users).findByEmail('ada@example.com'))!.id;
      const asked = await ask(ada, 'ada.new@example.com');
      expect(asked.status).toBe(303);
      expect(await (await ada.get('/account')).text()).toContain('We sent a link to ada.new@example.com.');
      const l = await link('ada.new@example.com');
      expect(t.mailbox.to('ada.new@example.com')[0]!.text).toContain('The link works once, for 24 hours.');
      expect(await emailOf(id)).toBe('ada@example.com');

      // A scanner's GET shows the button and changes nothing.
      expect((await new Browser(t).get(l.path)).status).toBe(200);
      expect(await emailOf(id)).toBe('ada@example.com');

      const done = await confirm(ada, l);
      expect(done.status).toBe(303);
      expect(done.headers.get('location')).toBe('/account');
      expect(await emailOf(id)).toBe('ada.new@example.com');
      const user = await t.app.container.make(Users).find(id);
      expect((user as unknown as { email_verified_at: string }).email_verified_at).toBe(
        t.clock.now().toISOString(),
      );
      expect(changed).toEqual([expect.objectContaining({ previousEmail: 'ada@example.com' })]);
      await t.mailbox.waitFor('ada@example.com', (m) => /address/i.test(m.subject ?? ''));

      const reused = await confirm(new Browser(t), l);
      expect(reused.status).toBe(410);
      expect(
        (await new Browser(t).submit('/login', { email: 'ada.new@example.com', password: PASSWORD })).status,
      ).toBe(302);
    });

    it('refuses a wrong password, the same address and a taken one with a clear 422, and mails nothing', async () => {
      const bob = await signIn('bob@example.com');
      const wrong = await ask(bob, 'bob.new@example.com', 'not my password');
      expect(wrong.status).toBe(422);
      expect(await wrong.text()).toContain('The current password is incorrect.');
      const same = await ask(bob, 'bob@example.com');
      expect(same.status).toBe(422);
      expect(await same.text()).toContain('This is already your e-mail address.');
      const taken = await ask(bob, 'cy@example.com');
      expect(taken.status).toBe(422);
      expect(await taken.text()).toContain('The email has already been taken.');
      const junk = await ask(bob, 'not an address');
      expect(junk.status).toBe(422);
      await new Promise((r) => setTimeout(r, 300));
      expect(t.mailbox.to('bob.new@example.com')).toEqual([]);
      expect(t.mailbox.to('cy@example.com')).toEqual([]);
    });

    it('two changes racing: one confirmed wins, the other link is refused; tampered, expired and other-user links too', async () => {
      changed.length = 0;
      const bob = await signIn('bob@example.com');
      const id = (await t.app.container.make(Users).findByEmail('bob@example.com'))!.id;
      expect((await ask(bob, 'bob.one@example.com')).status).toBe(303);
      expect((await ask(bob, 'bob.two@example.com')).status).toBe(303);
      const [one, two] = [await link('bob.one@example.com'), await link('bob.two@example.com')];

      const cy = await signIn('cy@example.com');
      const foreign = await confirm(cy, one);
      expect(foreign.status).toBe(403);
      const tampered = await confirm(new Browser(t), {
        path: one.path.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
        token: 'x',
      });
      expect(tampered.status).toBe(403);

      const [a, b] = [new Browser(t), new Browser(t)];
      const forms = await Promise.all(
        [
          [a, one],
          [b, two],
        ].map(async ([x, l]) => tokenIn(await (await (x as Browser).get((l as typeof one).path)).text())),
      );
      const answers = await Promise.all([
        a.post('/account/email/confirm', { _token: forms[0]!, token: one.token }),
        b.post('/account/email/confirm', { _token: forms[1]!, token: two.token }),
      ]);
      expect(answers.map((r) => r.status).sort()).toEqual([303, 410]);
      const winner = answers[0]!.status === 303 ? 'bob.one@example.com' : 'bob.two@example.com';
      expect(await emailOf(id)).toBe(winner);
      expect(changed).toHaveLength(1);

      expect((await ask(cy, 'cy.late@example.com')).status).toBe(303);
      const late = await link('cy.late@example.com');
      t.clock.advance(25 * 3_600_000);
      expect((await confirm(new Browser(t), late)).status).toBe(410);
    });
  },
);
