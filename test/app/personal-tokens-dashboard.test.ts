import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { AccessTokenRevoked, AuthorizedApps, Clients, PersonalAccessTokens } from '../../src/oauth/index.js';
import { approvalFields, basic, tokenRequest } from '../oauth/support.js';
import { ENGINES } from '../support/engines.js';
import { holdUntilBoth } from '../support/hold-until-both.js';
import { deleteFromTwoSessions, useDashboard } from './dashboard-support.js';

/** `/dashboard/tokens`'s personal access tokens as plain form posts (a browser without JavaScript). */
describe.each(ENGINES)('personal access tokens in the dashboard, form posts (%s)', (engine) => {
  const d = useDashboard({ engine, csrfPage: '/dashboard/tokens' });

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

  it('regenerate, clicked twice at once: one new token (same name, scopes and lifetime), the old one refused', async () => {
    const made = await d.ada.json(
      'POST',
      '/oauth/personal-access-tokens',
      { name: 'Rotate me', scopes: ['check-status'], expires_in_days: 7 },
      d.csrf,
    );
    const { accessToken: old, token } = (await made.json()) as { accessToken: string; token: { id: string } };
    expect((await api(old)).status).toBe(200);
    const path = `/oauth/personal-access-tokens/${token.id}/regenerate`;
    const answers = await Promise.all([
      d.ada.json('POST', path, {}, d.csrf),
      d.ada.json('POST', path, {}, d.csrf),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 404]);
    const won = (await answers.find((r) => r.status === 200)!.json()) as {
      accessToken: string;
      token: { name: string; scopes: string[]; created_at: string; expires_at: string };
    };
    expect(won.token.name).toBe('Rotate me');
    expect(won.token.scopes).toEqual(['check-status']);
    expect(Date.parse(won.token.expires_at) - Date.parse(won.token.created_at)).toBeCloseTo(
      7 * 86_400_000,
      -4,
    );
    expect((await api(won.accessToken)).status).toBe(200);
    expect((await api(old)).status).toBe(401);
  });

  it('regenerates with a form post: the page shows the new token once (no-store), the old one refused; again: already regenerated', async () => {
    const old = shownToken(await (await create({ name: 'Nightly', scopes: 'check-status' })).text())!;
    const page = await (await d.ada.get('/dashboard/tokens')).text();
    const id = /action="\/dashboard\/personal-tokens\/([^"/]+)\/regenerate"/.exec(
      page.split('<strong>Nightly</strong>')[1]!,
    )![1]!;
    const regenerate = () => d.ada.post(`/dashboard/personal-tokens/${id}/regenerate`, { _token: d.csrf });
    const res = await regenerate();
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    expect(html).toContain('Token “Nightly” regenerated: the old one no longer works');
    const renewed = shownToken(html)!;
    expect(renewed).not.toBe(old);
    expect((await api(old)).status).toBe(401);
    expect((await api(renewed)).status).toBe(200);
    const after = await (await d.ada.get('/dashboard/tokens')).text();
    expect(after).not.toContain(renewed);
    expect(after.match(/<strong>Nightly<\/strong>/g)).toHaveLength(1);
    const again = await regenerate();
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe('/dashboard/tokens#personal-tokens');
    expect(await (await d.ada.get('/dashboard/tokens')).text()).toContain(
      'That token was already regenerated or deleted.',
    );
  });

  it('an expiry chosen at creation: the form (and the JSON API) set the token lifetime; a bad one is 422', async () => {
    const lifetime = (jwt: string) => {
      const claims = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<
        string,
        number
      >;
      return claims.exp! - claims.iat!;
    };
    const html = await (await d.ada.get('/dashboard/tokens')).text();
    expect(html).toContain('<select id="field-token-expiry" name="expires_in_days">');
    const week = shownToken(await (await create({ name: 'Week', expires_in_days: '7' })).text())!;
    expect(lifetime(week)).toBe(7 * 86_400);
    const standard = shownToken(await (await create({ name: 'Default', expires_in_days: '' })).text())!;
    expect(lifetime(standard)).toBe(365 * 86_400);

    const json = await d.ada.json(
      'POST',
      '/oauth/personal-access-tokens',
      { name: 'Month', scopes: [], expires_in_days: 30 },
      d.csrf,
    );
    expect(json.status).toBe(200);
    const body = (await json.json()) as {
      accessToken: string;
      token: { created_at: string; expires_at: string };
    };
    expect(lifetime(body.accessToken)).toBe(30 * 86_400);
    expect(Date.parse(body.token.expires_at) - Date.parse(body.token.created_at)).toBeCloseTo(
      30 * 86_400_000,
      -4,
    );
    const bad = await d.ada.json(
      'POST',
      '/oauth/personal-access-tokens',
      { name: 'Bad', expires_in_days: 0 },
      d.csrf,
    );
    expect(bad.status).toBe(422);
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
    const id = /action="\/dashboard\/personal-tokens\/([^"/]+)"/.exec(
      page.split('<strong>Short-lived</strong>')[1]!,
    )![1]!;
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

  it('deleted twice at once (two sessions): revoked once; the other is told it was already deleted', async () => {
    const token = shownToken(await (await create({ name: 'Raced' })).text())!;
    const page = await (await d.ada.get('/dashboard/tokens')).text();
    const id = /action="\/dashboard\/personal-tokens\/([^"/]+)"/.exec(
      page.split('<strong>Raced</strong>')[1]!,
    )![1]!;
    const announced: string[] = [];
    const stop = d.server.app.events.listen(AccessTokenRevoked, (e) => {
      announced.push(e.tokenId);
    });
    const flashed = await deleteFromTwoSessions(
      d,
      `/dashboard/personal-tokens/${id}`,
      () => holdUntilBoth(d.server.app.container.make(PersonalAccessTokens), 'findForUser'),
      '/dashboard/tokens#personal-tokens',
      { deleted: 'Token “Raced” deleted.', gone: 'That token was already deleted.' },
    ).finally(stop);
    expect(flashed).toEqual(['deleted', 'gone']);
    expect(announced).toEqual([id]);
    expect((await api(token)).status).toBe(401);
  });

  it('revoking an authorized application twice at once: its tokens revoked once, both redirect, the second says no access was left', async () => {
    const redirect = 'https://shop.example/cb';
    const { client, plainSecret } = await d.server.app.container
      .make(Clients)
      .create({ name: 'Shop', redirect, confidential: true });
    const verifier = randomBytes(32).toString('base64url');
    const query = new URLSearchParams({
      client_id: client.id,
      redirect_uri: redirect,
      response_type: 'code',
      scope: 'check-status',
      state: 'st',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    const approval = await d.ada.get(`/oauth/authorize?${query}`);
    const approved = await d.ada.post('/oauth/authorize', approvalFields(await approval.text()));
    const code = new URL(approved.headers.get('location')!).searchParams.get('code')!;
    const exchanged = await tokenRequest(
      d.server,
      { grant_type: 'authorization_code', code, redirect_uri: redirect, code_verifier: verifier },
      { accept: 'application/json', authorization: basic(client.id, plainSecret!) },
    );
    const { access_token: token } = (await exchanged.json()) as { access_token: string };
    expect((await api(token)).status).toBe(200);
    expect(await (await d.ada.get('/dashboard/tokens')).text()).toContain(
      `action="/dashboard/authorized-apps/${client.id}"`,
    );

    const announced: string[] = [];
    const stop = d.server.app.events.listen(AccessTokenRevoked, (e) => {
      announced.push(e.tokenId);
    });
    // The real revoke, watched: what each of the two requests got back from it.
    const watched = vi.spyOn(d.server.app.container.make(AuthorizedApps), 'revoke');
    const revoke = () =>
      d.ada.post(`/dashboard/authorized-apps/${client.id}`, { _token: d.csrf, _method: 'DELETE' });
    const answers = await Promise.all([revoke(), revoke()]);
    stop();
    const outcomes = await Promise.all(watched.mock.results.map((r) => r.value));
    watched.mockRestore();
    for (const res of answers) {
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/dashboard/tokens#authorized-apps');
    }
    expect(announced).toHaveLength(1);
    // One revoked the app (flashing “Access … revoked.”), the other found nothing live (“… no access left.”).
    expect(outcomes.map((app) => app?.name ?? 'none').sort()).toEqual(['Shop', 'none']);
    // Both flashed into the one session; whichever saved last is the message shown.
    const after = await (await d.ada.get('/dashboard/tokens')).text();
    expect(after).toMatch(/Access for “Shop” revoked\.|That application had no access left\./);
    expect(after).not.toContain(`action="/dashboard/authorized-apps/${client.id}"`);
    expect((await api(token)).status).toBe(401);
  });

  it('refuses a form post without the CSRF token (419)', async () => {
    expect((await d.ada.post('/dashboard/personal-tokens', { name: 'No token' })).status).toBe(419);
  });
});
