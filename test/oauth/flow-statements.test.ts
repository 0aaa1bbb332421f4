import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracing, stopTracing } from '../../src/observability/tracing.js';
import { ENGINES } from '../support/engines.js';
import { ADA, approvalFields, Browser, basic, type OAuthTestApp, oauthApp, REDIRECT } from './support.js';

// The statements a request ran, as the database spans record them (tracing on, spans in memory).
const exporter = new InMemorySpanExporter();
beforeAll(() => startTracing({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
afterAll(() => stopTracing());

const statements = () =>
  exporter
    .getFinishedSpans()
    .map((span) => String(span.attributes['db.query.text'] ?? ''))
    .filter((text) => text !== '');

/** Every round trip, BEGIN and COMMIT included (their spans carry no text). */
const roundTrips = () =>
  exporter
    .getFinishedSpans()
    .filter((span) => span.attributes['db.system.name'] !== undefined)
    .map((span) => span.name);

/** The round trips of the warm user flows (issue 35: each one a few percent of a flow on PostgreSQL). */
describe.each(ENGINES)('statements per request of the user flows (%s)', (engine) => {
  let t: OAuthTestApp;
  let ada: Browser;
  let client: { id: string; secret: string };
  // A new access and refresh token: one statement on PostgreSQL (a data-modifying CTE), two on SQLite.
  const pair =
    engine === 'postgres'
      ? ['WITH oauth_access_tokens']
      : ['INSERT oauth_access_tokens', 'INSERT oauth_refresh_tokens'];

  beforeAll(async () => {
    t = await oauthApp({ engine });
    ada = new Browser(t.url);
    await ada.login(ADA);
    const created = await t.createClient();
    client = { id: created.client.id, secret: created.plainSecret! };
  });
  afterAll(async () => t?.stop());

  const authorize = () =>
    ada.get(
      `/oauth/authorize?${new URLSearchParams({
        client_id: client.id,
        redirect_uri: REDIRECT,
        response_type: 'code',
        scope: 'check-status',
        state: 'st',
      })}`,
    );

  const token = (params: Record<string, string>) =>
    fetch(`${t.url}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic(client.id, client.secret),
      },
      body: new URLSearchParams(params),
    });

  const exchange = async (res: Response) => {
    expect(res.status).toBe(302);
    const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
    const answer = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    expect(answer.status).toBe(200);
    return (await answer.json()) as { refresh_token: string };
  };

  /** A code for Ada's grant: through the approval page the first time, then straight back. */
  const approved = async () => {
    const res = await authorize();
    if (res.status !== 200) return res;
    return ada.post('/oauth/authorize', approvalFields(await res.text()));
  };

  it('an approved client: the authorize redirect reads the session with its user, the approval, then inserts the code', async () => {
    await exchange(await approved());
    await authorize();

    exporter.reset();
    const res = await authorize();
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get('location')!).searchParams.get('code')).toBeTruthy();
    // The client comes from the token endpoint's cache of live clients: its row is no read here.
    const ran = statements();
    expect(ran).toHaveLength(3);
    expect(ran[0]).toMatch(/from "sessions" as "s" left join "users" as "u"/);
    expect(ran[1]).toMatch(/^select "scopes" from "oauth_access_tokens"/);
    expect(ran[2]).toMatch(/^insert into "oauth_auth_codes" .* from "oauth_clients" where "id" = /);
  });

  it('a client revoked where this instance did not hear of it gets no code, though its record is cached', async () => {
    const { client: other } = await t.createClient({ firstParty: true });
    const visit = () =>
      ada.get(
        `/oauth/authorize?${new URLSearchParams({
          client_id: other.id,
          redirect_uri: REDIRECT,
          response_type: 'code',
          scope: 'check-status',
        })}`,
      );
    expect((await visit()).status).toBe(302);
    // Another instance revoked it: no event reached this one, whose cache still holds the client.
    await t.app.db.updateTable('oauth_clients').set({ revoked: 1 }).where('id', '=', other.id).execute();
    const codes = async () =>
      (await t.app.db.selectFrom('oauth_auth_codes').select('id').where('client_id', '=', other.id).execute())
        .length;
    const before = await codes();
    const res = await visit();
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await codes()).toBe(before);
  });

  it('a refresh: the refresh token and its access token in one read, then the transaction', async () => {
    const first = await exchange(await approved());
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(refreshed.status).toBe(200);
    const { refresh_token } = (await refreshed.json()) as { refresh_token: string };

    exporter.reset();
    expect((await token({ grant_type: 'refresh_token', refresh_token })).status).toBe(200);
    const ran = statements();
    expect(ran[0]).toMatch(/from "oauth_refresh_tokens" as "r" inner join "oauth_access_tokens"/);
    // Then, in one transaction, consume it, retire its access token, insert the new pair.
    expect(roundTrips()).toEqual([
      'SELECT oauth_refresh_tokens',
      'BEGIN',
      'UPDATE oauth_refresh_tokens',
      'UPDATE oauth_access_tokens',
      ...pair,
      'COMMIT',
    ]);
  });

  it('a code exchange: the code read, then the code consumed and the new pair in one transaction', async () => {
    const res = await approved();
    const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
    exporter.reset();
    const answer = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    expect(answer.status).toBe(200);
    expect(roundTrips()).toEqual([
      'SELECT oauth_auth_codes',
      'BEGIN',
      'UPDATE oauth_auth_codes',
      ...pair,
      'COMMIT',
    ]);
  });
});
