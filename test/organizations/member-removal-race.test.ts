import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Organizations } from '../../src/organizations/organizations.js';
import { ENGINES } from '../support/engines.js';
import { type Member, type OrganizationsTestApp, organizationsApp } from './support.js';

const ROUNDS = 20;

describe.each(ENGINES)('a token made for an organization while the member is removed (%s)', (engine) => {
  let t: OrganizationsTestApp;
  let organizations: Organizations;
  let owner: Member;
  let leaver: Member;
  let acme: number;

  beforeAll(async () => {
    t = await organizationsApp({ engine, oauth: true });
    organizations = t.app.container.make(Organizations);
    owner = await t.member('owner@example.com');
    leaver = await t.member('leaver@example.com');
    acme = (await organizations.create(owner.id, 'Acme')).id;
  });
  afterAll(() => t?.close());

  const probe = (credential: string) =>
    t.request('/probe/credential', {
      headers: { accept: 'application/json', authorization: `Bearer ${credential}` },
    });

  it(`removal and creation at once, ${ROUNDS} times: no token acting for the organization outlives the membership`, async () => {
    const made: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await organizations.addMember(acme, leaver.id, 'member', owner.id);
      const [removed, token] = await Promise.all([
        owner.send(`/organizations/${acme}/members/${leaver.id}/remove`),
        leaver.json('POST', `/oauth/personal-access-tokens?organization_id=${acme}`, {
          name: `race ${round}`,
          scopes: [],
        }),
      ]);
      expect(removed.status).toBe(200);
      // Either made before the removal (and ended by it) or refused as a non-member.
      expect([200, 404]).toContain(token.status);
      if (token.status === 200) made.push(((await token.json()) as { accessToken: string }).accessToken);
    }

    const liveTokens = await t.app.db
      .selectFrom('oauth_access_tokens')
      .select('id')
      .where('user_id', '=', leaver.id)
      .where('organization_id', '=', acme)
      .where('revoked', '=', 0)
      .execute();
    expect(liveTokens).toEqual([]);
    for (const credential of made) expect((await probe(credential)).status).toBe(401);
  });
});
