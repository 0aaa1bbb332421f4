// Baseline: the cheapest JSON route Hono serves on @hono/node-server.
import { Hono } from 'hono';
import { serveHono } from './announce.js';

const app = new Hono();
app.get('/bare', (c) => c.json({ ok: true }));
serveHono(app);
