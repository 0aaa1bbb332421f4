import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Organizations } from '../../src/organizations/organizations.js';
import { ENGINES } from '../support/engines.js';
import { type OrganizationsTestApp, organizationsApp } from './support.js';

/**
 * Holds each owner count, once read, until a second request has read one too, or a moment has
 * passed: with the organization's row held, the second request cannot read before the first commits,
 * so the first goes on alone; without it, both read "two owners" and both remove theirs.
 */
function holdOwnerCounts(organizations: Organizations) {
  const proto = organizations as unknown as { keepAnOwner: (...args: unknown[]) => Promise<void> };
  const original = proto.keepAnOwner.bind(organizations);
  let arrived = 0;
  let release = () => {};
  const both = new Promise<void>((resolve) => {
    release = resolve;
  });
  return vi.spyOn(proto, 'keepAnOwner').mockImplementation(async (...args) => {
    const counted = original(...args);
    await counted.catch(() => {});
    if (++arrived === 2) release();
    await Promise.race([both, new Promise((resolve) => setTimeout(resolve, 300))]);
    return counted;
  });
}

describe.each(ENGINES)('at least one owner, under concurrency (%s)', (engine) => {
  let t: OrganizationsTestApp;
  beforeAll(async () => {
    // The application lets admins manage owners: the case where two admins can race.
    t = await organizationsApp({
      engine,
      roles: (roles) => roles.grant('admin', 'members.manage-owners'),
    });
  });
  afterAll(() => t?.close());

  it('two admins removing the last two owners at once: one is refused', async () => {
    const organizations = t.app.container.make(Organizations);
    const [first, second, alice, bruno] = await Promise.all(
      ['first@example.com', 'second@example.com', 'alice@example.com', 'bruno@example.com'].map((e) =>
        t.member(e),
      ),
    );
    const { id } = await organizations.create(first!.id, 'Two owners');
    await organizations.addMember(id, second!.id, 'owner', first!.id);
    await organizations.addMember(id, alice!.id, 'admin', first!.id);
    await organizations.addMember(id, bruno!.id, 'admin', first!.id);

    const spy = holdOwnerCounts(organizations);
    const answers = await Promise.all([
      alice!.send(`/organizations/${id}/members/${first!.id}/remove`),
      bruno!.send(`/organizations/${id}/members/${second!.id}/role`, { role: 'member' }),
    ]);
    spy.mockRestore();

    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const owners = (await organizations.members(id)).filter((m) => m.role === 'owner');
    expect(owners).toHaveLength(1);
  });
});
