import { describe, expect, it } from 'vitest';
import { AccessTokenRevoked, ClientRevoked, Clients } from '../../src/oauth/index.js';
import { ENGINES } from '../support/engines.js';
import { holdUntilBoth } from '../support/hold-until-both.js';
import { deleteFromTwoSessions, useDashboard } from './dashboard-support.js';

/** `/dashboard/clients` as plain form posts (a browser without JavaScript). */
describe.each(ENGINES)('OAuth clients in the dashboard, form posts (%s)', (engine) => {
  const d = useDashboard({ engine, csrfPage: '/dashboard/clients' });

  const create = (fields: Record<string, string>) =>
    d.ada.post('/dashboard/clients', { _token: d.csrf, ...fields });
  const shown = (html: string, label: string) =>
    new RegExp(`<code data-value="${label}">([^<]+)</code>`).exec(html)?.[1];

  it('lists nothing at first, server-rendered; the form posts to the server', async () => {
    const html = await (await d.ada.get('/dashboard/clients')).text();
    expect(html).toContain('<form method="post" action="/dashboard/clients"');
    expect(html).toContain('<p class="muted" data-empty="true">You have not created any OAuth clients.</p>');
  });

  it('creates a confidential client: 201, id and secret shown once; listed; the secret works at /oauth/token', async () => {
    const res = await create({ name: 'Shop', redirect: 'https://shop.example/cb', confidential: 'on' });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    const [id, secret] = [shown(html, 'Client ID')!, shown(html, 'Secret')!];
    expect(secret.length).toBeGreaterThan(20);
    const page = await (await d.ada.get('/dashboard/clients')).text();
    expect(page).toContain(`<tr data-client="${id}">`);
    expect(page).not.toContain(secret);
    const token = await fetch(`${d.server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: secret }),
    });
    expect(token.status).toBe(200);
  });

  it('rotates a secret from its row: the new one shown once; the old one works for the chosen time', async () => {
    const html = await (
      await create({ name: 'Rotating', redirect: 'https://rotating.example/cb', confidential: 'on' })
    ).text();
    const [id, old] = [shown(html, 'Client ID')!, shown(html, 'Secret')!];
    const page = await (await d.ada.get('/dashboard/clients')).text();
    expect(page).toContain(`action="/dashboard/clients/${id}/secret"`);
    const res = await d.ada.post(`/dashboard/clients/${id}/secret`, {
      _token: d.csrf,
      grace_seconds: '3600',
    });
    expect(res.status).toBe(200);
    const rotated = await res.text();
    expect(rotated).toContain('New secret for “Rotating”');
    expect(rotated).toContain('The old secret keeps working until');
    const secret = shown(rotated, 'Secret')!;
    expect(secret).not.toBe(old);
    expect((await d.ada.get('/dashboard/clients').then((r) => r.text())).includes(secret)).toBe(false);
    for (const works of [old, secret]) {
      const token = await fetch(`${d.server.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: works }),
      });
      expect(token.status).toBe(200);
    }
  });

  it('an unticked "Confidential" makes a public client: no secret', async () => {
    const html = await (await create({ name: 'CLI', redirect: 'http://127.0.0.1/cb' })).text();
    expect(shown(html, 'Client ID')).toBeDefined();
    expect(shown(html, 'Secret')).toBeUndefined();
    expect(html).toContain('A public client has no secret: it must use PKCE.');
  });

  it('a refused create answers 422 with the page, the messages and what was typed', async () => {
    const res = await create({ name: ' ', redirect: 'not a url', confidential: 'on' });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('The name field is required.');
    expect(html).toContain('The redirect field must be a valid URL');
    expect(html).toContain('value="not a url"');
    expect(shown(html, 'Client ID')).toBeUndefined();
  });

  it('the edit form posted twice at once with the same values: both saved, the row holds them, still one client', async () => {
    const id = shown(
      await (
        await create({ name: 'Twice', redirect: 'https://twice.example/cb', confidential: 'on' })
      ).text(),
      'Client ID',
    )!;
    const clients = d.server.app.container.make(Clients);
    const before = (await clients.forUser(d.userId)).length;
    const edit = {
      _token: d.csrf,
      _method: 'PUT',
      name: 'Twice (edited)',
      redirect: 'https://twice.example/back',
    };
    const answers = await Promise.all([
      d.ada.post(`/dashboard/clients/${id}`, edit),
      d.ada.post(`/dashboard/clients/${id}`, edit),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/dashboard/clients');
    }
    expect(await (await d.ada.get('/dashboard/clients')).text()).toContain('Client “Twice (edited)” saved.');
    expect(await clients.findForUser(id, d.userId)).toMatchObject({
      name: 'Twice (edited)',
      redirect: 'https://twice.example/back',
    });
    const mine = await clients.forUser(d.userId);
    expect(mine).toHaveLength(before);
    expect(mine.filter((c) => c.name.startsWith('Twice'))).toHaveLength(1);
  });

  it('deletes with a form post (_method=DELETE): 303 back, flashed, gone; again: already deleted', async () => {
    const id = shown(
      await (await create({ name: 'Doomed', redirect: 'https://d.example/cb', confidential: 'on' })).text(),
      'Client ID',
    )!;
    const remove = () => d.ada.post(`/dashboard/clients/${id}`, { _token: d.csrf, _method: 'DELETE' });
    const res = await remove();
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/dashboard/clients');
    const after = await (await d.ada.get('/dashboard/clients')).text();
    expect(after).toContain('Client “Doomed” deleted.');
    expect(after).not.toContain(`<tr data-client="${id}">`);
    expect((await remove()).status).toBe(303);
    expect(await (await d.ada.get('/dashboard/clients')).text()).toContain(
      'That client was already deleted.',
    );
  });

  it('deleted twice at once (two sessions): deleted once, its token revoked once; the other is told it was already deleted', async () => {
    const html = await (
      await create({ name: 'Raced', redirect: 'https://r.example/cb', confidential: 'on' })
    ).text();
    const [id, secret] = [shown(html, 'Client ID')!, shown(html, 'Secret')!];
    const issued = await fetch(`${d.server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: secret }),
    });
    expect(issued.status).toBe(200);
    const revoked: string[] = [];
    const announced: string[] = [];
    const stops = [
      d.server.app.events.listen(ClientRevoked, (e) => {
        revoked.push(e.clientId);
      }),
      d.server.app.events.listen(AccessTokenRevoked, (e) => {
        announced.push(e.tokenId);
      }),
    ];
    const flashed = await deleteFromTwoSessions(
      d,
      `/dashboard/clients/${id}`,
      () => holdUntilBoth(d.server.app.container.make(Clients), 'findForUser'),
      '/dashboard/clients',
      { deleted: 'Client “Raced” deleted.', gone: 'That client was already deleted.' },
    ).finally(() => {
      for (const stop of stops) stop();
    });
    expect(flashed).toEqual(['deleted', 'gone']);
    expect(revoked).toEqual([id]);
    expect(announced).toHaveLength(1);
    expect(await (await d.ada.get('/dashboard/clients')).text()).not.toContain(`<tr data-client="${id}">`);
  });

  it('refuses a form post without the CSRF token (419)', async () => {
    expect(
      (await d.ada.post('/dashboard/clients', { name: 'x', redirect: 'https://x.example' })).status,
    ).toBe(419);
  });
});
