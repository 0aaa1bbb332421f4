import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BillingError } from '../../src/billing/errors.js';
import { ConfigurationError, HttpError, ValidationError } from '../../src/core/errors.js';
import { OAuthError } from '../../src/oauth/errors.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { ENGINES } from '../support/engines.js';

const json = { accept: 'application/json' };
/** What a stack trace or a leaked internal would look like in a body. */
const LEAKS = [/\bat \S+ \(/, /\.ts:\d+/, /pg-primary/, /sk_test_/, /Error:/];

/** A server error's body: generic, naming only the request (the id its `X-Request-Id` carries). */
const serverError = (res: Response) => ({
  message: 'Server Error',
  request_id: res.headers.get('x-request-id'),
});

function expectNoLeak(body: string): void {
  for (const pattern of LEAKS) expect(body).not.toMatch(pattern);
}

// docs/errors.md "How an error becomes a response" and "Application": driven through a booted app.
describe.each(ENGINES)('error responses (docs/errors.md) (%s)', (engine) => {
  let t: TestApp;
  let logged: ReturnType<typeof vi.spyOn>;

  beforeAll(async () => {
    t = await createTestApp({
      engine,
      setup: (app) => {
        const r = app.router;
        r.get('/boom', () => {
          throw new Error('connection to pg-primary refused');
        });
        r.get('/unavailable', () => {
          throw new HttpError(503, 'pg-primary is down for maintenance');
        });
        r.get('/conflict', () => {
          throw new HttpError(409, 'The order was already shipped.');
        });
        r.get('/invalid', () => {
          throw new ValidationError({ email: ['The email field is required.'] });
        });
        r.get('/misconfigured', () => {
          throw new ConfigurationError('Nothing is bound to pg-primary.');
        });
        r.get('/declined', () => {
          throw BillingError.cardDeclined('Your card was declined.');
        });
        r.get('/gateway', () => {
          throw BillingError.provider('Stripe rejected sk_test_123 at pg-primary');
        });
        r.get('/oauth-failure', () => {
          throw OAuthError.serverError('pg-primary exploded');
        });
        r.post('/only-post', () => 'posted');
      },
    });
    logged = vi.spyOn(t.app.logger, 'error');
  });
  afterAll(() => t.close());

  it('an unknown route is 404 { message: "Not Found" } for JSON, an HTML page otherwise', async () => {
    const res = await t.request('/no/such/route', { headers: json });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Not Found' });
    const page = await t.request('/no/such/route');
    expect([page.status, page.headers.get('content-type')]).toEqual([404, 'text/html; charset=UTF-8']);
    expect(await page.text()).toContain('<h1>404</h1>');
  });

  it('a known path with another method is 404 too (no 405: docs "Known inconsistencies" 6)', async () => {
    const res = await t.request('/only-post', { headers: json });
    expect([res.status, await res.json()]).toEqual([404, { message: 'Not Found' }]);
  });

  it('a plain Error in a route is 500 { message: "Server Error" }, logged with its stack, never shown', async () => {
    logged.mockClear();
    const res = await t.request('/boom', { headers: json });
    expect(res.status).toBe(500);
    const body = await res.text();
    expect(JSON.parse(body)).toEqual(serverError(res));
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expectNoLeak(body);
    const [context] = logged.mock.calls[0] as [{ err: Error }];
    expect(context.err.message).toBe('connection to pg-primary refused');
    expect(context.err.stack).toMatch(/\.ts:\d+/);

    const page = await t.request('/boom');
    expect(page.status).toBe(500);
    const html = await page.text();
    expect(html).toContain('Server Error');
    expectNoLeak(html);
  });

  it('an HttpError ≥ 500 hides its message; a 4xx shows it', async () => {
    const hidden = await t.request('/unavailable', { headers: json });
    expect([hidden.status, await hidden.json()]).toEqual([503, serverError(hidden)]);
    const shown = await t.request('/conflict', { headers: json });
    expect([shown.status, await shown.json()]).toEqual([409, { message: 'The order was already shipped.' }]);
  });

  it('ValidationError is 422 { message, errors } (Laravel), a ConfigurationError at request time a generic 500', async () => {
    const invalid = await t.request('/invalid', { headers: json });
    expect([invalid.status, await invalid.json()]).toEqual([
      422,
      // Laravel's message: the first error (with "(and N more errors)" when there are more).
      { message: 'The email field is required.', errors: { email: ['The email field is required.'] } },
    ]);
    const misconfigured = await t.request('/misconfigured', { headers: json });
    const body = await misconfigured.text();
    expect([misconfigured.status, JSON.parse(body)]).toEqual([500, serverError(misconfigured)]);
    expectNoLeak(body);
  });

  it('BillingError: 4xx { message, code } even for a page request; provider_error a generic 502', async () => {
    const declined = await t.request('/declined');
    expect([declined.status, await declined.json()]).toEqual([
      402,
      { message: 'Your card was declined.', code: 'card_declined' },
    ]);
    logged.mockClear();
    const gateway = await t.request('/gateway', { headers: json });
    const body = await gateway.text();
    expect([gateway.status, JSON.parse(body)]).toEqual([502, serverError(gateway)]);
    expectNoLeak(body);
    expect(logged).toHaveBeenCalledTimes(1);
  });

  it('RFC 6749 §5.2: an OAuth server_error thrown anywhere keeps the RFC body, with a generic description', async () => {
    const res = await t.request('/oauth-failure', { headers: json });
    const body = await res.text();
    expect([res.status, JSON.parse(body)]).toEqual([
      500,
      { error: 'server_error', error_description: 'The server could not complete the request.' },
    ]);
    expectNoLeak(body);
  });
});
