// Peer: `@node-oauth/oauth2-server` with an in-memory model on a plain `node:http` server:
// `POST /token` (client_credentials, opaque tokens) and `GET /protected`, guarded by its
// `authenticate()` with a scope check.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import OAuth2Server, { Request, Response } from '@node-oauth/oauth2-server';
import { announce, exitOnSigterm } from './announce.js';

interface StoredToken {
  accessToken: string;
  accessTokenExpiresAt?: Date;
  scope?: string[];
  client: { id: string; grants: string[] };
  user: { id: string };
}

const client = { id: 'bench-client', secret: 'bench-secret', grants: ['client_credentials'] };
const tokens = new Map<string, StoredToken>();

const oauth = new OAuth2Server({
  accessTokenLifetime: 3600,
  model: {
    getClient: async (id: string, secret: string) =>
      id === client.id && (secret === undefined || secret === client.secret)
        ? { id: client.id, grants: client.grants }
        : null,
    getUserFromClient: async (found: { id: string }) => ({ id: found.id }),
    validateScope: async (_user: unknown, _client: unknown, scope?: string[]) =>
      scope?.every((s) => s === 'check-status') ? scope : false,
    saveToken: async (token: any, found: any, user: any) => {
      const stored = { ...token, client: found, user };
      tokens.set(token.accessToken, stored);
      return stored;
    },
    getAccessToken: async (accessToken: string) => tokens.get(accessToken) ?? null,
    verifyScope: async (token: StoredToken, scope: string[]) =>
      scope.every((s) => token.scope?.includes(s) ?? false),
  } as any,
});

function readForm(req: IncomingMessage): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString()))));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: unknown) {
  res.writeHead(status, { ...headers, 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function handle(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const request = new Request({
    method: req.method ?? 'GET',
    headers: req.headers as Record<string, string>,
    query: Object.fromEntries(url.searchParams),
    body: req.method === 'POST' ? await readForm(req) : {},
  });
  const response = new Response({ headers: {} });
  try {
    if (req.method === 'POST' && url.pathname === '/token') {
      await oauth.token(request, response);
      return send(res, response.status ?? 200, response.headers as Record<string, string>, response.body);
    }
    if (req.method === 'GET' && url.pathname === '/protected') {
      const token = await oauth.authenticate(request, response, { scope: ['check-status'] });
      return send(res, 200, {}, { ok: true, client: token.client.id });
    }
    send(res, 404, {}, { message: 'Not Found' });
  } catch (error: any) {
    send(res, error.code ?? 500, {}, { error: error.name, message: error.message });
  }
}

// One token issued up front for the protected route.
const seed = randomBytes(32).toString('hex');
tokens.set(seed, {
  accessToken: seed,
  accessTokenExpiresAt: new Date(Date.now() + 3_600_000),
  scope: ['check-status'],
  client: { id: client.id, grants: client.grants },
  user: { id: client.id },
});

const server = createServer((req, res) => void handle(req, res));
server.listen(0, '127.0.0.1', () => {
  exitOnSigterm();
  announce({
    port: (server.address() as AddressInfo).port,
    fixtures: { clientId: client.id, clientSecret: client.secret, token: seed },
  });
});
