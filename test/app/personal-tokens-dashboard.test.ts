import { describe, expect, it } from 'vitest';
import { engine, useDashboard } from './dashboard-support.js';

/** `/dashboard/tokens`'s personal access tokens as plain form posts (a browser without JavaScript). */
describe(`personal access tokens in the dashboard, form posts (${engine})`, () => {
  const d = useDashboard({ csrfPage: '/dashboard/tokens' });

  const create = (fields: Record<string, string>) =>
    d.ada.post('/dashboard/personal-tokens', { _token: d.csrf, ...fields });
  const shownToken = (html: string) => /<code data-value="Token">([^<]+)<\/code>/.exec(html)?.[1];
  const api = (token: string) =>
    fetch(`${d.server.url}/api/user`, {
      headers: { accept: 'application/json', authorization: `Bearer ${token}` },
    });

  it('lists nothing at first, server-rendered; the form posts to the server', async () => {
    const html = await (await d.ada.get('/dashboard/tokens')).text();
    expect(html).toContain('<form method="post" action="/dashboard/personal-tokens"');
    expect(html).toContain(
      '<p class="muted mt-lg" data-empty="true">You have no personal access tokens.</p>',
    );
  });

  it('creates a token: 201, the token in the page once, no-store; the list shows it; the API accepts it', async () => {
    const res = await create({ name: 'CI deploy', scopes: 'check-status' });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const token = shownToken(await res.text())!;
    expect(token.split('.')).toHaveLength(3);
    expect((await api(token)).status).toBe(200);
    const page = await (await d.ada.get('/dashboard/tokens')).text();
    expect(page).not.toContain(token);
    expect(page).toMatch(/<tr data-token="[^"]+"><td><strong>CI deploy<\/strong>/);
    expect(page).toContain('<span class="badge mr-xs">check-status</span>');
  });

  it('a refused create answers 422 with the page, Laravel-style messages and what was typed', async () => {
    const res = await create({ name: ' ', scopes: 'launch-missiles' });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('The name field is required.');
    expect(html).toContain('The scopes must be scopes this application defines.');
    expect(shownToken(html)).toBeUndefined();
  });

  it('deletes with a form post (_method=DELETE): 303 back, flashed; the API refuses the token; again: already deleted', async () => {
    const token = shownToken(await (await create({ name: 'Short-lived' })).text())!;
    const page = await (await d.ada.get('/dashboard/tokens')).text();
    const id = /action="\/dashboard\/personal-tokens\/([^"]+)"/.exec(page.split('Short-lived')[1]!)![1]!;
    const remove = () =>
      d.ada.post(`/dashboard/personal-tokens/${id}`, { _token: d.csrf, _method: 'DELETE' });
    const res = await remove();
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/dashboard/tokens#personal-tokens');
    const after = await (await d.ada.get('/dashboard/tokens')).text();
    expect(after).toContain('Token “Short-lived” deleted.');
    expect(after).not.toContain('<strong>Short-lived</strong>');
    expect((await api(token)).status).toBe(401);
    expect((await remove()).status).toBe(303);
    expect(await (await d.ada.get('/dashboard/tokens')).text()).toContain('That token was already deleted.');
  });

  it('refuses a form post without the CSRF token (419)', async () => {
    expect((await d.ada.post('/dashboard/personal-tokens', { name: 'No token' })).status).toBe(419);
  });
});
