import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthHooks } from '../../src/oauth/index.js';
import { Organizations } from '../../src/organizations/organizations.js';
import { ENGINES } from '../support/engines.js';
import { type Member, type OrganizationsTestApp, organizationsApp } from './support.js';

const ROUNDS = 20;

describe.each(ENGINES)(
  'an OAuth client made for an organization while its creator is removed (%s)',
  (engine) => {
    let t: OrganizationsTestApp;
    let organizations: Organizations;
    let owner: Member;
    let leaver: Member;
    let acme: number;

    beforeAll(async () => {
      t = await organizationsApp({ engine, oauth: true, config: { oauth: { maxClientsPerUser: 100 } } });
      organizations = t.app.container.make(Organizations);
      owner = await t.member('owner@example.com');
      leaver = await t.member('leaver@example.com');
      acme = (await organizations.create(owner.id, 'Acme')).id;
    });
    afterAll(() => t?.close());

    const createClient = (name: string) =>
      leaver.json('POST', `/oauth/clients?organization_id=${acme}`, {
        name,
        redirect: 'https://app.example.com/callback',
      });
    const liveClients = () =>
      t.app.db
        .selectFrom('oauth_clients')
        .select('name')
        .where('organization_id', '=', acme)
        .where('revoked', '=', 0)
        .execute();

    it('a removal that commits between the role check and the insert: the client is not kept, the answer is 404', async () => {
      await organizations.addMember(acme, leaver.id, 'admin', owner.id);
      const hooks = OAuthHooks.of(t.app);
      const access = hooks.organizationAccess!;
      // The removal lands right after the first (unlocked) check allowed the creation.
      hooks.organizationAccess = async (userId, organizationId, action, options) => {
        await access(userId, organizationId, action, options);
        if (userId === leaver.id && action === 'manage' && !options?.locked)
          await organizations.remove(owner.id, acme, leaver.id);
      };
      try {
        const res = await createClient('late');
        expect(res.status).toBe(404);
      } finally {
        hooks.organizationAccess = access;
      }
      expect(await liveClients()).toEqual([]);
    });

    it(`removal and creation at once, ${ROUNDS} times: every client kept was made by a member, none by a removed one`, async () => {
      const made: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        await organizations.addMember(acme, leaver.id, 'admin', owner.id);
        const [removed, created] = await Promise.all([
          owner.send(`/organizations/${acme}/members/${leaver.id}/remove`),
          createClient(`race ${round}`),
        ]);
        expect(removed.status).toBe(200);
        // Either made before the removal (the organization's, kept) or refused as a non-member.
        expect([201, 404]).toContain(created.status);
        if (created.status === 201) made.push(`race ${round}`);
      }
      expect((await liveClients()).map((c) => c.name).sort()).toEqual(made.sort());
      expect((await createClient('after')).status).toBe(404);
    });
  },
);
