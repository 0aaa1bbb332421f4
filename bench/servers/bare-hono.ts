// Baseline: the cheapest JSON route Hono serves on @hono/node-server. With
// BENCH_SECURITY_HEADERS=1 (`bare.headers`), its responses carry the five security headers every
// Tollgate response carries, with the reference service's values (its Stripe edition's CSP
// sources), written as Tollgate writes them: with the status line, by SecurityHeaders' own
// response class. The fair baseline for a Tollgate route: the same bytes, none of its work.
import { Hono } from 'hono';
import { SecurityHeaders } from 'tollgate/http';
import { serveHono } from './announce.js';

const app = new Hono();
app.get('/bare', (c) => c.json({ ok: true }));
if (process.env.BENCH_SECURITY_HEADERS === '1') {
  const headers = new SecurityHeaders().allowAll({
    'script-src': ['https://js.stripe.com'],
    'frame-src': ['https://js.stripe.com', 'https://hooks.stripe.com'],
    'connect-src': ['https://api.stripe.com'],
    'img-src': ['https://*.stripe.com'],
  });
  serveHono(app, undefined, { ServerResponse: headers.serverResponse() });
} else serveHono(app);
