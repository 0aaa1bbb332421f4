import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { User } from '../auth/user.js';
import type { Clock } from '../core/clock.js';
import { ValidationError } from '../core/errors.js';
import type { EventDispatcher } from '../core/events.js';
import type { Database } from '../database/types.js';
import type { Mailer } from '../mail/mailer.js';
import { OrganizationError } from './errors.js';
import { InvitationRevoked, MemberAdded, MemberInvited } from './events.js';
import { invitationMail } from './invitation-mail.js';
import type { Organizations } from './organizations.js';
import type { InvitationRow } from './tables.js';

/** Why a link does not work: each gets its own answer on the page. */
export type InvitationFailure = 'invalid' | 'expired' | 'used' | 'other-address';

export type CheckedInvitation =
  | { ok: true; invitation: InvitationRow; organization: string }
  | { ok: false; reason: InvitationFailure };

export interface InvitationsDeps {
  db: Kysely<Database>;
  organizations: Organizations;
  mailer: Mailer;
  events: EventDispatcher;
  clock: Clock;
  expiresDays: number;
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Invitations by e-mail: a 256-bit token per invitation, stored as its SHA-256, mailed through the
 * outbox. Accepting uses the invitation up and adds the membership in one transaction, so two
 * accepts at once make one membership.
 */
export class Invitations {
  constructor(private readonly deps: InvitationsDeps) {}

  async invite(actor: User, organizationId: number, email: string, role: string): Promise<InvitationRow> {
    const { organizations } = this.deps;
    const membership = await organizations.authorize(
      actor.id,
      organizationId,
      'members.invite',
      'invite members',
    );
    const address = email.trim().toLowerCase();
    if (!EMAIL.test(address) || address.length > 255)
      throw new ValidationError({ email: ['The email field must be a valid email address.'] });
    if (!organizations.roles.exists(role))
      throw new ValidationError({ role: [`There is no role "${role}".`] });
    if (role === 'owner' && !organizations.roles.can(membership.role, 'members.manage-owners'))
      throw OrganizationError.forbidden('invite an owner');
    if (await this.#isMember(organizationId, address))
      throw new OrganizationError(409, `${address} is already a member of this organization.`);
    // One live invitation per address: a new one replaces the last.
    await this.#end(organizationId, (q) => q.where('email', '=', address));
    const { row, token } = await this.#issue(organizationId, address, role, actor.id);
    await this.#mail(row, token, membership.organization.name, actor.name);
    await this.deps.events.dispatch(new MemberInvited(organizationId, row.id, address, role, actor.id));
    return row;
  }

  /** A new link to the same address (the old one stops working). */
  async resend(actor: User, organizationId: number, invitationId: number): Promise<void> {
    const membership = await this.deps.organizations.authorize(
      actor.id,
      organizationId,
      'members.invite',
      'invite members',
    );
    const old = await this.#pendingOne(organizationId, invitationId);
    await this.#end(organizationId, (q) => q.where('id', '=', old.id));
    const { row, token } = await this.#issue(organizationId, old.email, old.role, actor.id);
    await this.#mail(row, token, membership.organization.name, actor.name);
  }

  async revoke(actor: User, organizationId: number, invitationId: number): Promise<void> {
    await this.deps.organizations.authorize(actor.id, organizationId, 'members.invite', 'revoke invitations');
    const invitation = await this.#pendingOne(organizationId, invitationId);
    await this.#end(organizationId, (q) => q.where('id', '=', invitation.id));
    await this.deps.events.dispatch(
      new InvitationRevoked(organizationId, invitation.id, invitation.email, actor.id),
    );
  }

  /** The organization's invitations still waiting for an answer. */
  pending(organizationId: number): Promise<InvitationRow[]> {
    return this.deps.db
      .selectFrom('organization_invitations')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', this.now())
      .orderBy('id')
      .execute();
  }

  /** Whether the link would work now, without using it up (what a GET of the link shows). */
  async check(token: string, user?: User): Promise<CheckedInvitation> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return { ok: false, reason: 'invalid' };
    const row = await this.deps.db
      .selectFrom('organization_invitations as i')
      .innerJoin('organizations as o', 'o.id', 'i.organization_id')
      .selectAll('i')
      .select('o.name as organization')
      .where('i.token_hash', '=', hash(token))
      .executeTakeFirst();
    if (!row) return { ok: false, reason: 'invalid' };
    const { organization, ...invitation } = row;
    if (invitation.accepted_at || invitation.revoked_at) return { ok: false, reason: 'used' };
    if (invitation.expires_at <= this.now()) return { ok: false, reason: 'expired' };
    if (user && user.email.toLowerCase() !== invitation.email) return { ok: false, reason: 'other-address' };
    return { ok: true, invitation, organization };
  }

  /**
   * Accepts for `user`, whose address must be the one invited. The invitation is used up and the
   * membership added in one transaction: a second accept finds it used (or the member there).
   */
  async accept(token: string, user: User): Promise<CheckedInvitation> {
    const checked = await this.check(token, user);
    if (!checked.ok) return checked;
    const { invitation } = checked;
    const now = this.now();
    const added = await this.deps.db.transaction().execute(async (trx) => {
      const taken = await trx
        .updateTable('organization_invitations')
        .set({ accepted_at: now })
        .where('id', '=', invitation.id)
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 0) return false;
      await this.deps.organizations.addMember(
        invitation.organization_id,
        user.id,
        invitation.role,
        invitation.invited_by,
        trx,
      );
      return true;
    });
    if (!added) return { ok: false, reason: 'used' };
    await this.deps.events.dispatch(
      new MemberAdded(invitation.organization_id, user.id, invitation.role, invitation.invited_by),
    );
    return checked;
  }

  async #issue(organizationId: number, email: string, role: string, invitedBy: number) {
    const token = randomBytes(32).toString('base64url');
    const now = this.deps.clock.now();
    const row = await this.deps.db
      .insertInto('organization_invitations')
      .values({
        organization_id: organizationId,
        email,
        role,
        token_hash: hash(token),
        invited_by: invitedBy,
        expires_at: new Date(now.getTime() + this.deps.expiresDays * 86_400_000).toISOString(),
        created_at: now.toISOString(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { row, token };
  }

  async #mail(row: InvitationRow, token: string, organization: string, inviter: string): Promise<void> {
    const { mailer, expiresDays } = this.deps;
    const link = mailer.context.url(`/invitations/accept?token=${token}`);
    await mailer.send(invitationMail, row.email, {
      organization,
      inviter,
      role: row.role,
      link,
      expiresDays,
    });
  }

  async #pendingOne(organizationId: number, invitationId: number): Promise<InvitationRow> {
    const found = (await this.pending(organizationId)).find((i) => i.id === invitationId);
    if (!found) throw new OrganizationError(404, 'No such invitation waiting for an answer.');
    return found;
  }

  async #end(
    organizationId: number,
    which: (q: ReturnType<Invitations['revocation']>) => ReturnType<Invitations['revocation']>,
  ): Promise<void> {
    await which(this.revocation(organizationId)).execute();
  }

  private revocation(organizationId: number) {
    return this.deps.db
      .updateTable('organization_invitations')
      .set({ revoked_at: this.now() })
      .where('organization_id', '=', organizationId)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null);
  }

  async #isMember(organizationId: number, email: string): Promise<boolean> {
    const row = await this.deps.db
      .selectFrom('organization_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select('m.id')
      .where('m.organization_id', '=', organizationId)
      .where((eb) => eb(eb.fn('lower', ['u.email']), '=', email))
      .executeTakeFirst();
    return row !== undefined;
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}
