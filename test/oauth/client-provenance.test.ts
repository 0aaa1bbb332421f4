import { describe, expect, it } from 'vitest';
import { ANY_ENGINE } from '../support/engines.js';
import { Browser, type OAuthTestApp, REDIRECT, serverWithAda } from './support.js';

const ELSEWHERE = 'https://app.example/callback';

/** A client registered by dynamic registration (RFC 7591), as anyone on the internet could. */
async function selfRegistered(t: OAuthTestApp, name: string): Promise<string> {
  const res = await fetch(`${t.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [ELSEWHERE],
      token_endpoint_auth_method: 'none',
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

function authorizePath(clientId: string, redirectUri: string, extra: Record<string, string> = {}): string {
  return `/oauth/authorize?${new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    scope: 'check-status',
    state: 'st',
    ...extra,
  })}`;
}

/** The approval page's client line and its "Registered by / Sends you back to" facts, tags stripped. */
function clientFacts(html: string): string {
  const section = /<section class="card approval">([\s\S]*?)<form/.exec(html)![1]!;
  return section
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

describe(`the approval page says who registered the client and where the answer goes`, () => {
  const app = serverWithAda({ engine: ANY_ENGINE, config: { oauth: { registration: 'open' } } });

  it("an operator's client: registered by the operator, the redirect URI's host shown", async () => {
    const { client } = await app.t.createClient({ name: 'Operator App' });
    const page = await app.ada.get(authorizePath(client.id, REDIRECT));
    expect(page.status).toBe(200);
    const facts = clientFacts(await page.text());
    expect(facts).toContain('Registered by the operator of this service');
    expect(facts).toContain(`Sends you back to ${new URL(REDIRECT).host}`);
    expect(facts).not.toContain('unverified');
  });

  it("a user's client: registered by that user", async () => {
    const { client } = await app.t.createClient({ name: 'Bob App', userId: app.t.bob.id });
    const facts = clientFacts(await (await app.ada.get(authorizePath(client.id, REDIRECT))).text());
    expect(facts).toContain(`Registered by ${app.t.bob.name}, a user of this service`);
    expect(facts).not.toContain('unverified');
  });

  it('a dynamically registered client is marked unverified', async () => {
    const id = await selfRegistered(app.t, 'Totally Official Bank');
    const facts = clientFacts(await (await app.ada.get(authorizePath(id, ELSEWHERE))).text());
    expect(facts).toContain('Totally Official Bank unverified');
    expect(facts).toContain('Registered by itself, by dynamic registration (unverified)');
    expect(facts).toContain('Sends you back to app.example');
  });
});

describe(`RFC 9700 §4.11.2: errors are not redirected to a client that registered itself`, () => {
  const app = serverWithAda({ engine: ANY_ENGINE, config: { oauth: { registration: 'open' } } });

  it("an operator's client gets its error at its redirect URI (RFC 6749 §4.1.2.1)", async () => {
    const { client } = await app.t.createClient();
    const res = await app.ada.get(authorizePath(client.id, REDIRECT, { scope: 'no-such-scope' }));
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('invalid_scope');
  });

  it('a self-registered client: an error page naming the host, no redirect', async () => {
    const id = await selfRegistered(app.t, 'Redirector');
    const res = await app.ada.get(authorizePath(id, ELSEWHERE, { scope: 'no-such-scope' }));
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    const page = await res.text();
    expect(page).toContain('so you are not sent on to app.example');
  });

  it('prompt=none for a visitor nobody is logged in as: a page too, for a self-registered client', async () => {
    const id = await selfRegistered(app.t, 'Silent Redirector');
    const res = await new Browser(app.t.url).get(authorizePath(id, ELSEWHERE, { prompt: 'none' }));
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });
});
