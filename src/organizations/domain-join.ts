import type { Kysely } from 'kysely';
import type { User } from '../auth/user.js';
import type { EventDispatcher } from '../core/events.js';
import type { Database } from '../database/types.js';
import { OrganizationError } from './errors.js';
import { AutoJoinDomainChanged } from './events.js';
import type { Organizations } from './organizations.js';

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** The user's address's domain, when the address is verified (accounts' `email_verified_at`); else null. */
export function verifiedDomain(user: User): string | null {
  const verified = (user as User & { email_verified_at?: string | null }).email_verified_at;
  if (!verified) return null;
  return user.email.slice(user.email.lastIndexOf('@') + 1).toLowerCase();
}

/**
 * Domain-restricted auto-join: an owner names an e-mail domain they receive mail at (their own
 * verified address is at it), and any user whose verified address is at that domain may join as a
 * `member` from the organizations page. An unverified address never joins; without the accounts
 * module nobody is verified, so nobody joins this way.
 */
export class DomainJoin {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly organizations: Organizations,
    private readonly events: EventDispatcher,
  ) {}

  /** Sets (or, with '' or null, ends) the domain; owners only, and only their own verified address's domain. */
  async setDomain(actor: User, organizationId: number, value: string | null): Promise<string | null> {
    await this.organizations.authorize(
      actor.id,
      organizationId,
      'members.auto-join',
      'let people join by e-mail domain',
    );
    const domain = (value ?? '').trim().toLowerCase().replace(/^@/, '') || null;
    if (domain !== null) {
      if (!DOMAIN.test(domain)) throw new OrganizationError(422, `“${domain}” is not an e-mail domain.`);
      if (verifiedDomain(actor) !== domain)
        throw new OrganizationError(
          422,
          `Only the domain of your own verified address can let people join: verify an address at ${domain} first.`,
        );
    }
    await this.db
      .updateTable('organizations')
      .set({ auto_join_domain: domain })
      .where('id', '=', organizationId)
      .execute();
    await this.events.dispatch(new AutoJoinDomainChanged(organizationId, domain, actor.id));
    return domain;
  }

  /** The organizations the user may join by their verified address's domain (none they are in). */
  async joinable(user: User): Promise<{ id: number; name: string }[]> {
    const domain = verifiedDomain(user);
    if (domain === null) return [];
    return this.db
      .selectFrom('organizations as o')
      .select(['o.id', 'o.name'])
      .where('o.auto_join_domain', '=', domain)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('organization_members as m')
              .select('m.id')
              .whereRef('m.organization_id', '=', 'o.id')
              .where('m.user_id', '=', user.id),
          ),
        ),
      )
      .orderBy('o.name')
      .execute();
  }

  /** Joins as `member`: 403 for an unverified address, 404 unless the organization takes the address's domain. */
  async join(user: User, organizationId: number): Promise<string> {
    const domain = verifiedDomain(user);
    if (domain === null)
      throw new OrganizationError(
        403,
        'Verify your e-mail address first: only a verified address can join by its domain.',
      );
    const organization = await this.db
      .selectFrom('organizations')
      .select('name')
      .where('id', '=', organizationId)
      .where('auto_join_domain', '=', domain)
      .executeTakeFirst();
    if (!organization) throw OrganizationError.notFound();
    await this.organizations.addMember(organizationId, user.id, 'member', user.id, undefined, 'domain');
    return organization.name;
  }
}
