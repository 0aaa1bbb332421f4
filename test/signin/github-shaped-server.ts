import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A person the server knows: GitHub's `/user` fields and `/user/emails` list. */
export interface GithubShapedUser {
  id: number;
  login: string;
  name: string | null;
  /** The public profile address (GitHub's `email` on `/user`): often null, never a proof. */
  email: string | null;
  emails: Array<{ email: string; primary: boolean; verified: boolean; visibility: string | null }>;
}

export interface GithubShapedServer {
  url: string;
  clientId: string;
  clientSecret: string;
  /** Who the next authorization signs in as. */
  signIn(user: GithubShapedUser): void;
  /** What the server was sent: the authorization query, the token request form, the API calls' bearer tokens. */
  seen: {
    authorize: URLSearchParams[];
    token: URLSearchParams[];
    api: Array<{ path: string; bearer: string }>;
  };
  close(): Promise<void>;
}

/**
 * A small HTTP server speaking GitHub's documented web application flow and REST shapes:
 * `GET /login/oauth/authorize` (answers at once for the user set with `signIn`, as a user who
 * already approved), `POST /login/oauth/access_token` (form body; JSON with `Accept:
 * application/json`: `access_token`, `token_type: bearer`, comma-separated `scope`; PKCE S256
 * checked), `GET /user`, `GET /user/emails` (bearer token). `GET /oauth2/userinfo` answers as a
 * plain OAuth 2.0 provider's user endpoint (`id`, `email`, `email_verified`, `name`).
 */
export async function startGithubShapedServer(): Promise<GithubShapedServer> {
  const codes = new Map<string, { user: GithubShapedUser; challenge: string; redirectUri: string }>();
  const tokens = new Map<string, GithubShapedUser>();
  let next: GithubShapedUser | undefined;
  const seen: GithubShapedServer['seen'] = { authorize: [], token: [], api: [] };
  const clientId = 'Iv1.tollgate-test';
  const clientSecret = randomBytes(20).toString('hex');

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const bodyOf = async (req: IncomingMessage) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    return new URLSearchParams(text);
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname === '/login/oauth/authorize') {
      seen.authorize.push(url.searchParams);
      const redirectUri = url.searchParams.get('redirect_uri')!;
      if (url.searchParams.get('client_id') !== clientId || !next)
        return json(res, 400, { error: 'unknown' });
      const code = randomBytes(10).toString('hex');
      codes.set(code, { user: next, challenge: url.searchParams.get('code_challenge') ?? '', redirectUri });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      const form = await bodyOf(req);
      seen.token.push(form);
      const grant = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      // GitHub answers a bad code with 200 and an `error` member.
      if (
        form.get('client_id') !== clientId ||
        form.get('client_secret') !== clientSecret ||
        !grant ||
        grant.challenge !== challenge ||
        grant.redirectUri !== form.get('redirect_uri')
      )
        return json(res, 200, { error: 'bad_verification_code', error_description: 'The code is wrong.' });
      const token = `gho_${randomBytes(18).toString('hex')}`;
      tokens.set(token, grant.user);
      return json(res, 200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
    }
    const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const user = tokens.get(bearer);
    seen.api.push({ path: url.pathname, bearer });
    if (!user) return json(res, 401, { message: 'Bad credentials' });
    if (url.pathname === '/user')
      return json(res, 200, { login: user.login, id: user.id, name: user.name, email: user.email });
    if (url.pathname === '/user/emails') return json(res, 200, user.emails);
    if (url.pathname === '/oauth2/userinfo') {
      const primary = user.emails.find((e) => e.primary);
      return json(res, 200, {
        id: `u-${user.id}`,
        email: primary?.email,
        email_verified: primary?.verified,
        name: user.name,
      });
    }
    return json(res, 404, { message: 'Not Found' });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    clientId,
    clientSecret,
    seen,
    signIn(user) {
      next = user;
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
