import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { Browser, basic, tokenIn } from '../oauth/http-client.js';
import type { Mailbox } from '../support/mailbox.js';
import { linkIn, logIn, signUpVerified } from './account-walk.js';

const PASSWORD = 'correct horse battery';
const OWNER = { name: 'Olive', email: 'olive@example.com', password: PASSWORD };
const BOB = { name: 'Bob', email: 'bob@example.com', password: PASSWORD };

/** `starter`'s source with organizations turned on as its comment says: import it, uncomment the line. */
export function withOrganizations(starter: string): string {
  const line = '// await app.register(organizationsProvider());';
  const imported = '  accountsProvider,\n';
  if (!starter.includes(line) || !starter.includes(imported))
    throw new Error('The starter no longer turns organizations on by uncommenting one line.');
  return starter.replace(line, line.slice(3)).replace(imported, `${imported}  organizationsProvider,\n`);
}

/** A page's form posted with its CSRF token (the browser is signed in). */
async function submit(browser: Browser, page: string, action: string, fields: Record<string, string> = {}) {
  const token = tokenIn(await (await browser.get(page)).text());
  return browser.post(action, { _token: token, ...fields });
}

/** Follows a signed-out visitor's link to a page that offers a form carrying `?intended=`. */
async function postWithIntended(browser: Browser, path: string, fields: Record<string, string>) {
  const intended = decodeURIComponent(new URL(path, browser.base).searchParams.get('intended')!);
  return browser.post(path, { _token: tokenIn(await (await browser.get(path)).text()), ...fields, intended });
}

/**
 * An organization from the packed package, against a running starter with organizations on and
 * `MAIL_URL` pointing at `mailbox` (every link from a received mail): an owner signs up and creates
 * it, invites Bob, who signs up from the invitation and accepts; the organization's API key and
 * Bob's token acting for it work, the token carrying `org_id` (in the JWT and in introspection by a
 * resource server made with the installed `tollgate client` command in `project`); once the owner
 * removes Bob, his token is refused and the organization's key still works.
 */
export async function walkOrganizationFlows(base: string, mailbox: Mailbox, project: string): Promise<void> {
  const owner = await signUpVerified(base, mailbox, OWNER);
  const created = await submit(owner, '/organizations', '/organizations', { name: 'Acme' });
  expect(created.status).toBe(303);
  const organization = /^\/organizations\/(\d+)$/.exec(created.headers.get('location') ?? '')?.[1];
  expect(organization, created.headers.get('location') ?? '').toBeTruthy();
  const orgPage = `/organizations/${organization}`;
  expect(await (await owner.get(orgPage)).text()).toContain('Acme');

  // The invitation, by e-mail through the real SMTP server.
  const invited = await submit(owner, orgPage, `${orgPage}/invitations`, {
    email: BOB.email,
    role: 'member',
  });
  expect([invited.status, invited.headers.get('location')]).toEqual([303, orgPage]);
  const invitation = await mailbox.waitFor(BOB.email, (mail) =>
    /invited you to Acme/.test(mail.subject ?? ''),
  );
  const link = linkIn(invitation.text, base, '/invitations/accept');

  // Bob, signed out: the link offers an account; signing up and in come back to it; he accepts.
  const bob = new Browser(base);
  const offer = await (await bob.get(link)).text();
  const register = /href="(\/register\?intended=[^"]+)"/.exec(offer)?.[1]?.replaceAll('&amp;', '&');
  expect(register, offer.slice(0, 800)).toBeTruthy();
  const signedUp = await postWithIntended(bob, register!, { ...BOB, password_confirmation: PASSWORD });
  expect(signedUp.status).toBe(302);
  const login = signedUp.headers.get('location')!;
  expect(login).toMatch(/^\/login\?intended=%2Finvitations%2Faccept/);
  const signedIn = await postWithIntended(bob, login, { email: BOB.email, password: PASSWORD });
  expect(signedIn.headers.get('location')).toBe(link.slice(base.length));
  const accepted = await submit(bob, link, '/invitations/accept', {
    token: new URL(link).searchParams.get('token')!,
  });
  expect([accepted.status, accepted.headers.get('location')]).toEqual([303, orgPage]);
  const listing = await owner.get(orgPage, { accept: 'application/json' });
  const { members } = (await listing.json()) as {
    members: { userId: number; email: string; role: string }[];
  };
  const bobId = members.find((member) => member.email === BOB.email && member.role === 'member')?.userId;
  expect(bobId, JSON.stringify(members)).toBeDefined();

  // The organization's API key (the owner's) and Bob's personal access token acting for it.
  const scope = `?organization_id=${organization}`;
  const keyMade = await owner.json(
    'POST',
    `/api-keys${scope}`,
    { name: 'CI', scopes: ['read-orders'] },
    await owner.csrfToken(),
  );
  expect(keyMade.status).toBe(201);
  const { key, api_key } = (await keyMade.json()) as { key: string; api_key: { organization_id: number } };
  expect(api_key.organization_id).toBe(Number(organization));
  const tokenMade = await bob.json(
    'POST',
    `/oauth/personal-access-tokens${scope}`,
    { name: 'laptop', scopes: ['read-orders'] },
    await bob.csrfToken(),
  );
  expect(tokenMade.status).toBe(200);
  const { accessToken } = (await tokenMade.json()) as { accessToken: string };
  const claims = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as Record<
    string,
    unknown
  >;
  expect(claims.org_id).toBe(Number(organization));

  const orders = (credential: string) =>
    fetch(`${base}/api/orders`, {
      headers: { authorization: `Bearer ${credential}`, accept: 'application/json' },
    });
  expect((await orders(key)).status).toBe(200);
  expect((await orders(accessToken)).status).toBe(200);

  // Introspection by a resource server, made with the installed command.
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      'node_modules/.bin/tollgate',
      'client',
      '--resource-server',
      '--name',
      'Gateway',
      '--redirect',
      `${base}/callback`,
      '--json',
    ],
    { cwd: project, encoding: 'utf8', env: { PATH: process.env.PATH, LOG_LEVEL: 'silent' } },
  );
  const gateway = JSON.parse(stdout) as { id: string; secret: string };
  const introspect = async () => {
    const res = await fetch(`${base}/oauth/introspect`, {
      method: 'POST',
      headers: {
        authorization: basic(gateway.id, gateway.secret),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ token: accessToken }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { active: boolean; org_id?: number; sub?: string };
  };
  expect(await introspect()).toMatchObject({
    active: true,
    org_id: Number(organization),
    sub: String(bobId),
  });

  // The owner removes Bob: his token for the organization is refused at once; its key works on.
  const removed = await submit(owner, orgPage, `${orgPage}/members/${bobId}/remove`);
  expect([removed.status, removed.headers.get('location')]).toEqual([303, orgPage]);
  expect((await orders(accessToken)).status).toBe(401);
  expect(await introspect()).toEqual({ active: false });
  expect((await orders(key)).status).toBe(200);
  // Bob's own account is untouched: he still signs in, and no longer sees the organization.
  const again = await logIn(base, BOB.email, PASSWORD);
  expect((await again.get(orgPage, { accept: 'application/json' })).status).toBe(404);
}
