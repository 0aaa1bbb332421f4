import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalFields, Browser, insecure, tokenIn } from '../oauth/http-client.js';
import { freePort } from '../support/free-port.js';
import { type Mailbox, startMailbox } from '../support/mailbox.js';
import { walkAccountFlows } from './account-walk.js';
import { importsFile, typecheck, writeConsumer } from './consumer-check.js';
import { blockFile, type DocBlock } from './doc-blocks.js';
import { walkOrganizationFlows, withOrganizations } from './organization-walk.js';
import { installPackedProject, repo } from './packed-project.js';

/**
 * The packages as a user gets them (`npm pack` of both, installed in an empty folder), packed once
 * for three checks: the README's starter (`examples/starter/server.mjs`, organizations turned on)
 * started with plain `node` and driven over HTTP like a person and a third-party client would (its
 * mail received by a real SMTP server in process); a strict TypeScript consumer importing every
 * entry point; and every code block of README.md and docs/ against the package.
 */
const REDIRECT = 'http://127.0.0.1:9999/callback';
const USER = { name: 'Ada', email: 'ada@example.com', password: 'correct horse battery' };

describe('the packed package, installed in an empty folder', () => {
  let project: string;
  let packed: string[];
  let blocks: DocBlock[];
  let typeErrors: Promise<Map<string, string[]>>;
  let server: ChildProcess;
  let mailbox: Mailbox;
  let base: string;
  let output = '';

  beforeAll(async () => {
    ({ dir: project, tarballs: packed } = installPackedProject({ tollgate: { app: './server.mjs' } }));
    // The starter as a user turns organizations on: its one commented line (and the import).
    const starter = readFileSync(join(repo, 'examples/starter/server.mjs'), 'utf8');
    writeFileSync(join(project, 'server.mjs'), withOrganizations(starter));
    blocks = writeConsumer(project);
    typeErrors = typecheck(project);
    typeErrors.catch(() => {});

    // Another port than the starter's own, told only by the project's .env (the server and the
    // `tollgate` command read it alike), and the mail server a user would set there.
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    mailbox = await startMailbox();
    writeFileSync(
      join(project, '.env'),
      `PORT=${port}\nAPP_URL=${base}\nMAIL_URL=${mailbox.url}\nMAIL_POLL_MS=100\n`,
    );
    server = spawn(process.execPath, ['server.mjs'], {
      cwd: project,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn' },
    });
    server.stdout!.on('data', (chunk) => (output += chunk));
    server.stderr!.on('data', (chunk) => (output += chunk));
    await new Promise<void>((ready, failed) => {
      server.stdout!.on('data', () => output.includes('Listening on') && ready());
      server.on('exit', (code) => failed(new Error(`The starter exited with ${code}:\n${output}`)));
    });
    // A build, two packs and an install: minutes when the machine is busy.
  }, 600_000);

  afterAll(async () => {
    server?.kill();
    await mailbox?.close();
    await typeErrors?.catch(() => {});
    if (project) rmSync(project, { recursive: true, force: true });
  }, 300_000);

  it('packs the sandbox apart: tollgate holds none of it, @tollgate/sandbox only dist, README and package.json', () => {
    const contents = (name: string) => {
      const tarball = packed.find((file) => file.endsWith(name));
      expect(tarball, name).toBeDefined();
      return execFileSync('tar', ['-tzf', tarball!], { encoding: 'utf8' }).trim().split('\n');
    };
    expect(packed).toHaveLength(2);
    const tollgate = contents('/tollgate-0.1.0.tgz');
    expect(tollgate).toContain('package/dist/billing/index.js');
    expect(tollgate.filter((file) => /^package\/(dist\/)?sandbox\//.test(file))).toEqual([]);
    const sandbox = contents('/tollgate-sandbox-0.1.0.tgz');
    expect(sandbox).toContain('package/dist/stripe/index.js');
    expect(sandbox).toContain('package/dist/braintree/index.d.ts');
    expect(new Set(sandbox.map((file) => file.split('/').slice(0, 2).join('/')))).toEqual(
      new Set(['package/dist', 'package/README.md', 'package/package.json']),
    );
  });

  it('a strict consumer (NodeNext, no skipLibCheck) importing every entry point of both packages compiles', async () => {
    const errors = await typeErrors;
    expect(errors.get('(tsc)')).toBeUndefined();
    expect([...errors].filter(([file]) => !file.startsWith('docs/'))).toEqual([]);
  }, 240_000);

  it('every TypeScript block of README.md and docs/ type-checks against the package (its imports, its calls)', async () => {
    const errors = await typeErrors;
    const typescript = blocks.filter((block) => block.lang !== 'js');
    expect(typescript.length).toBeGreaterThan(60);
    const failing = typescript.flatMap((block) =>
      (errors.get(blockFile(block)) ?? []).map((error) => `${block.doc}:${block.line}: ${error}`),
    );
    expect(failing).toEqual([]);
    expect(errors.size).toBe(0);
  }, 300_000);

  it("every JavaScript block's imports from the packages exist (run with plain node)", async () => {
    const javascript = blocks.filter((block) => block.lang === 'js');
    const README = javascript.find((block) => block.doc === 'README.md');
    expect(README?.code).toContain("from 'tollgate'");
    for (const block of javascript) {
      await expect(
        promisify(execFile)(process.execPath, [importsFile(block)], {
          cwd: project,
          env: { PATH: process.env.PATH },
        }),
        `${block.doc}:${block.line}`,
      ).resolves.toBeDefined();
    }
  }, 60_000);

  it('renders every page with plain node (the package ships compiled JSX)', async () => {
    const browser = new Browser(base);
    for (const path of ['/login', '/register', '/assets/app.css']) {
      const res = await browser.get(path);
      expect(res.status, path).toBe(200);
      if (path.endsWith('.css')) continue;
      const page = await res.text();
      expect(page.startsWith('<!DOCTYPE html>'), path).toBe(true);
      expect(page).toContain('name="_token"');
    }
    const dashboard = await browser.get('/dashboard');
    expect(dashboard.status).toBe(302);
    expect(dashboard.headers.get('location')).toMatch(/^\/login/);
    expect((await browser.get('/')).headers.get('location')).toBe('/dashboard');
  });

  // Run asynchronously: a synchronous call blocks this process for longer than the server's
  // keep-alive timeout, so fetch's pooled sockets would still look open when the next test reuses them.
  it("the installed `tollgate` command works on the app named in package.json's `tollgate.app`", async () => {
    const { stdout: out } = await promisify(execFile)(
      process.execPath,
      [
        'node_modules/.bin/tollgate',
        'user:create',
        '--email',
        'cli@example.com',
        '--password',
        'a long password',
      ],
      { cwd: project, encoding: 'utf8', env: { PATH: process.env.PATH, LOG_LEVEL: 'silent' } },
    );
    expect(out).toMatch(/Created user \d+ <cli@example.com>/);
  }, 120_000);

  it("README's headless path on another port: `tollgate token:create` signs for .env's APP_URL, the server takes it", async () => {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [
        'node_modules/.bin/tollgate',
        'token:create',
        '--user',
        'cli@example.com',
        '--name',
        'curl',
        '--scopes',
        'read-orders',
        '--json',
      ],
      { cwd: project, encoding: 'utf8', env: { PATH: process.env.PATH, LOG_LEVEL: 'warn' } },
    );
    expect(stderr).toContain(`tollgate: APP_URL ${base}, database `);
    expect(stderr).toContain('(environment and .env)');
    const { accessToken } = JSON.parse(stdout) as { accessToken: string };
    const orders = await fetch(`${base}/api/orders`, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    });
    expect(orders.status).toBe(200);
  }, 120_000);

  it('registers and logs in through the HTML pages, authorizes a client, calls the API, subscribes', async () => {
    const browser = new Browser(base);
    const form = await browser.get('/register');
    const registered = await browser.post('/register', {
      _token: tokenIn(await form.text()),
      ...USER,
      password_confirmation: USER.password,
    });
    // Signing up does not sign in (a taken e-mail gets the same answer): log in next.
    expect([registered.status, registered.headers.get('location')]).toEqual([302, '/login']);
    await browser.login(USER);

    // A third-party client, registered through the JSON API with the session and its CSRF token.
    const csrf = await browser.csrfToken();
    const created = await browser.json('POST', '/oauth/clients', { name: 'Shop', redirect: REDIRECT }, csrf);
    expect(created.status).toBe(201);
    const { id, secret } = (await created.json()) as { id: string; secret: string };

    // Authorization code + PKCE through the real approval page.
    const issuer = new URL(base);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    );
    const client: oauth.Client = { client_id: id };
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorize = new URL(as.authorization_endpoint!);
    authorize.search = new URLSearchParams({
      client_id: id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'read-orders',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).toString();
    const approval = await browser.get(authorize.href);
    expect(approval.status).toBe(200);
    const approvalPage = await approval.text();
    expect(approvalPage).toContain('Shop');
    expect(approvalPage).toContain('Read your orders');
    const approved = await browser.post('/oauth/authorize', approvalFields(approvalPage));
    expect(approved.status).toBe(302);
    const callback = new URL(approved.headers.get('location')!);
    const params = oauth.validateAuthResponse(as, client, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.ClientSecretPost(secret),
      params,
      REDIRECT,
      verifier,
      insecure,
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);

    const api = (path: string, token: string, method = 'GET') =>
      fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      });
    const orders = await api('/api/orders', tokens.access_token);
    expect(orders.status).toBe(200);
    expect(await orders.json()).toMatchObject({ data: [{ item: 'Tea' }] });
    expect((await api('/api/orders', tokens.access_token, 'POST')).status).toBe(403);
    expect((await api('/api/orders', 'not-a-token')).status).toBe(401);
    expect(await (await api('/api/me', tokens.access_token)).json()).toMatchObject({
      email: USER.email,
      subscribed: false,
    });

    // A personal access token, made in code by the starter's /tokens page.
    const tokenPage = await (await browser.post('/tokens', { _token: csrf })).text();
    const personal = /<pre>([^<]+)<\/pre>/.exec(tokenPage)?.[1];
    expect(personal, tokenPage.slice(0, 500)).toBeTruthy();
    expect((await api('/api/orders', personal!)).status).toBe(200);

    // A subscription on the embedded Stripe sandbox, through the official SDK.
    const subscribed = await browser.post('/subscribe', { _token: csrf });
    expect(subscribed.status, output).toBe(302);
    expect(await (await api('/api/me', tokens.access_token)).json()).toMatchObject({ subscribed: true });
    expect(await (await browser.get('/dashboard')).text()).toContain('You are subscribed');
  });

  it('verifies a sign-up, resets a password, changes the e-mail address, ends sessions and deletes the account, every link from a received mail', async () => {
    await walkAccountFlows(base, mailbox);
  });

  it("an organization: created, a member invited by mail signs up and accepts, the organization's key and his token for it (org_id) work, removed he is refused and the key works on", async () => {
    await walkOrganizationFlows(base, mailbox, project);
  }, 120_000);
});
