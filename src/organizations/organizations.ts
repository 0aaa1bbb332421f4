import type { Kysely, Transaction } from 'kysely';
import { UserDeletionRefused } from '../auth/user-deletion-guards.js';
import type { Clock } from '../core/clock.js';
import { ValidationError } from '../core/errors.js';
import type { EventDispatcher } from '../core/events.js';
import { isPostgres } from '../database/schema.js';
import type { Database } from '../database/types.js';
import { OrganizationError } from './errors.js';
import {
  MemberAdded,
  MemberRemoved,
  MemberRoleChanged,
  OrganizationCreated,
  OrganizationDeleted,
  OrganizationRenamed,
} from './events.js';
import type { OrganizationRoles, Permission } from './roles.js';
import type { MemberRow, OrganizationRow } from './tables.js';

/** An organization as one of its members sees it. */
export interface Membership {
  organization: OrganizationRow;
  role: string;
}

export interface MemberListing {
  userId: number;
  name: string;
  email: string;
  role: string;
  since: string;
}

export interface OrganizationsDeps {
  db: Kysely<Database>;
  roles: OrganizationRoles;
  events: EventDispatcher;
  clock: Clock;
  /** A reason deleting the organization must wait (a live subscription), or undefined to go ahead. */
  refuseDeletion?: (organizationId: number) => Promise<string | undefined>;
  /**
   * Ends what a membership gave (its tokens for the organization) in `trx`, the transaction that
   * removes it; returns what to do once that committed.
   */
  endMembership?: (
    trx: Kysely<Database>,
    organizationId: number,
    userId: number,
  ) => Promise<() => Promise<void>>;
}

const MAX_NAME = 100;

/**
 * Organizations and their members. Every change that could take away an owner runs in a
 * transaction that first writes the organization's row: PostgreSQL then queues a second such
 * change behind the first (a row lock), SQLite serialises writers anyway, so two changes at once
 * cannot both see "another owner is left" and leave none.
 */
export class Organizations {
  constructor(private readonly deps: OrganizationsDeps) {}

  get roles(): OrganizationRoles {
    return this.deps.roles;
  }

  async create(userId: number, name: string): Promise<OrganizationRow> {
    const clean = validName(name);
    const at = this.now();
    const organization = await this.deps.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('organizations')
        .values({ name: clean, created_at: at, updated_at: at })
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('organization_members')
        .values({ organization_id: row.id, user_id: userId, role: 'owner', created_at: at, updated_at: at })
        .execute();
      return row;
    });
    await this.deps.events.dispatch(new OrganizationCreated(organization.id, clean, userId));
    await this.deps.events.dispatch(new MemberAdded(organization.id, userId, 'owner', userId));
    return organization;
  }

  /** The organizations a user belongs to, by name; empty for a personal account. */
  async forUser(userId: number): Promise<Membership[]> {
    const rows = await this.deps.db
      .selectFrom('organization_members as m')
      .innerJoin('organizations as o', 'o.id', 'm.organization_id')
      .select(['o.id', 'o.name', 'o.auto_join_domain', 'o.created_at', 'o.updated_at', 'm.role'])
      .where('m.user_id', '=', userId)
      .orderBy('o.name')
      .orderBy('o.id')
      .execute();
    return rows.map(({ role, ...organization }) => ({ organization, role }));
  }

  /**
   * The user's membership of the organization; 404 when there is none (whether it exists is not
   * said). `locked`: read `FOR SHARE` on PostgreSQL, so a removal or role change in progress is
   * waited for and its outcome read (SQLite runs one statement or transaction at a time anyway).
   */
  async membership(
    userId: number,
    organizationId: number,
    db: Kysely<Database> = this.deps.db,
    locked = false,
  ): Promise<Membership> {
    let query = db
      .selectFrom('organization_members as m')
      .innerJoin('organizations as o', 'o.id', 'm.organization_id')
      .select(['o.id', 'o.name', 'o.auto_join_domain', 'o.created_at', 'o.updated_at', 'm.role'])
      .where('m.user_id', '=', userId)
      .where('m.organization_id', '=', organizationId);
    // The member's row only: the organization's row is what changes to members lock first, and
    // holding it too could deadlock with one of them.
    if (locked && isPostgres(db)) query = query.forShare('m');
    const row = await query.executeTakeFirst();
    if (!row) throw OrganizationError.notFound();
    const { role, ...organization } = row;
    return { organization, role };
  }

  /**
   * The membership, if the member's role allows `permission`; else 403 saying what was refused.
   * `locked`: see `membership`.
   */
  async authorize(
    userId: number,
    organizationId: number,
    permission: Permission,
    what: string,
    options: { locked?: boolean } = {},
  ): Promise<Membership> {
    const membership = await this.membership(userId, organizationId, this.deps.db, options.locked);
    if (!this.deps.roles.can(membership.role, permission)) throw OrganizationError.forbidden(what);
    return membership;
  }

  async members(organizationId: number): Promise<MemberListing[]> {
    const rows = await this.deps.db
      .selectFrom('organization_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['m.user_id', 'u.name', 'u.email', 'm.role', 'm.created_at'])
      .where('m.organization_id', '=', organizationId)
      .orderBy('m.created_at')
      .orderBy('m.id')
      .execute();
    return rows.map((r) => ({
      userId: r.user_id,
      name: r.name,
      email: r.email,
      role: r.role,
      since: r.created_at,
    }));
  }

  async rename(actorId: number, organizationId: number, name: string): Promise<void> {
    await this.authorize(actorId, organizationId, 'organization.update', 'rename it');
    const clean = validName(name);
    await this.deps.db
      .updateTable('organizations')
      .set({ name: clean, updated_at: this.now() })
      .where('id', '=', organizationId)
      .execute();
    await this.deps.events.dispatch(new OrganizationRenamed(organizationId, clean, actorId));
  }

  async delete(actorId: number, organizationId: number): Promise<void> {
    await this.authorize(actorId, organizationId, 'organization.delete', 'delete it');
    const refused = await this.deps.refuseDeletion?.(organizationId);
    if (refused) throw new OrganizationError(409, refused);
    await this.deps.db.deleteFrom('organizations').where('id', '=', organizationId).execute();
    await this.deps.events.dispatch(new OrganizationDeleted(organizationId, actorId));
  }

  /** Adds a user (an accepted invitation); 409 if they are a member already. */
  async addMember(
    organizationId: number,
    userId: number,
    role: string,
    actorId: number | null,
    db: Kysely<Database> = this.deps.db,
    via: 'domain' | null = null,
  ): Promise<void> {
    const at = this.now();
    const added = await db
      .insertInto('organization_members')
      .values({ organization_id: organizationId, user_id: userId, role, created_at: at, updated_at: at })
      .onConflict((oc) => oc.columns(['organization_id', 'user_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!added) throw new OrganizationError(409, 'You are already a member of this organization.');
    if (db === this.deps.db)
      await this.deps.events.dispatch(new MemberAdded(organizationId, userId, role, actorId, via));
  }

  async changeRole(actorId: number, organizationId: number, userId: number, role: string): Promise<void> {
    if (!this.deps.roles.exists(role)) throw new ValidationError({ role: [`There is no role "${role}".`] });
    const from = await this.#underLock(organizationId, async (trx) => {
      const actor = await this.#actor(
        trx,
        actorId,
        organizationId,
        'members.update',
        "change members' roles",
      );
      const target = await this.#member(trx, organizationId, userId);
      if (
        (target.role === 'owner' || role === 'owner') &&
        !this.deps.roles.can(actor.role, 'members.manage-owners')
      )
        throw OrganizationError.forbidden('make or unmake owners');
      if (target.role === role) return undefined;
      if (target.role === 'owner') await this.keepAnOwner(trx, organizationId);
      await trx
        .updateTable('organization_members')
        .set({ role, updated_at: this.now() })
        .where('id', '=', target.id)
        .execute();
      return target.role;
    });
    if (from !== undefined)
      await this.deps.events.dispatch(new MemberRoleChanged(organizationId, userId, from, role, actorId));
  }

  /** Removes a member; a member removing themself is leaving, which needs no permission. */
  async remove(actorId: number, organizationId: number, userId: number): Promise<void> {
    const { role, ended } = await this.#underLock(organizationId, async (trx) => {
      const leaving = actorId === userId;
      const actor = leaving
        ? await this.#member(trx, organizationId, actorId)
        : await this.#actor(trx, actorId, organizationId, 'members.remove', 'remove members');
      const target = leaving ? actor : await this.#member(trx, organizationId, userId);
      if (!leaving && target.role === 'owner' && !this.deps.roles.can(actor.role, 'members.manage-owners'))
        throw OrganizationError.forbidden('remove an owner');
      if (target.role === 'owner') await this.keepAnOwner(trx, organizationId);
      await trx.deleteFrom('organization_members').where('id', '=', target.id).execute();
      return { role: target.role, ended: await this.deps.endMembership?.(trx, organizationId, userId) };
    });
    await ended?.();
    await this.deps.events.dispatch(new MemberRemoved(organizationId, userId, role, actorId));
  }

  leave(userId: number, organizationId: number): Promise<void> {
    return this.remove(userId, organizationId, userId);
  }

  /** The actor (an owner) makes another member the owner and becomes an admin. */
  async transferOwnership(actorId: number, organizationId: number, toUserId: number): Promise<void> {
    if (actorId === toUserId) throw new OrganizationError(422, 'You are already an owner.');
    const previous = await this.#underLock(organizationId, async (trx) => {
      const actor = await this.#actor(trx, actorId, organizationId, 'organization.transfer', 'transfer it');
      const target = await this.#member(trx, organizationId, toUserId);
      const at = this.now();
      await trx
        .updateTable('organization_members')
        .set({ role: 'owner', updated_at: at })
        .where('id', '=', target.id)
        .execute();
      await trx
        .updateTable('organization_members')
        .set({ role: 'admin', updated_at: at })
        .where('id', '=', actor.id)
        .execute();
      return { actor: actor.role, target: target.role };
    });
    if (previous.target !== 'owner')
      await this.deps.events.dispatch(
        new MemberRoleChanged(organizationId, toUserId, previous.target, 'owner', actorId),
      );
    await this.deps.events.dispatch(
      new MemberRoleChanged(organizationId, actorId, previous.actor, 'admin', actorId),
    );
  }

  /**
   * Ends the user's memberships before their account is deleted, under the same row locks as the
   * owner rule (every organization of theirs, in id order, so two such calls cannot deadlock).
   * Refused, changing nothing, where they are the last owner and others are members; an
   * organization with no other member is deleted with them, unless `refuseDeletion` says no.
   */
  async releaseUser(userId: number): Promise<void> {
    // Asked before the transaction: the hook reads on its own connection, which SQLite's single
    // one would only give it after the transaction ends.
    const alone = await this.#soleMemberships(this.deps.db, userId);
    for (const { id, name } of alone) {
      const refused = await this.deps.refuseDeletion?.(id);
      if (refused) throw new UserDeletionRefused(`${name}: ${refused}`);
    }
    const released = await this.deps.db.transaction().execute(async (trx) => {
      const ids = await trx
        .selectFrom('organization_members')
        .select('organization_id')
        .where('user_id', '=', userId)
        .orderBy('organization_id')
        .execute();
      const held = [];
      for (const { organization_id } of ids) held.push(await this.#holding(trx, organization_id, userId));
      const blocking = held.filter((h) => h.lastOwner && h.members > 1).map((h) => h.name);
      if (blocking.length > 0) throw lastOwnerOf(blocking);
      const deleting = held.filter((h) => h.members === 1).map((h) => h.id);
      if (deleting.some((id) => !alone.some((a) => a.id === id)))
        throw new UserDeletionRefused('Your organizations changed while deleting your account: try again.');
      if (deleting.length > 0) await trx.deleteFrom('organizations').where('id', 'in', deleting).execute();
      await trx.deleteFrom('organization_members').where('user_id', '=', userId).execute();
      const ended = [];
      for (const h of held.filter((h) => h.members > 1))
        ended.push(await this.deps.endMembership?.(trx, h.id, userId));
      return { held, ended };
    });
    for (const announce of released.ended) await announce?.();
    for (const h of released.held)
      await this.deps.events.dispatch(
        h.members === 1
          ? new OrganizationDeleted(h.id, userId)
          : new MemberRemoved(h.id, userId, h.role, userId),
      );
  }

  /** The organizations whose only member is the user. */
  #soleMemberships(db: Kysely<Database>, userId: number) {
    return db
      .selectFrom('organizations as o')
      .innerJoin('organization_members as m', 'm.organization_id', 'o.id')
      .select(['o.id', 'o.name'])
      .where('m.user_id', '=', userId)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('organization_members as other')
              .select('other.id')
              .whereRef('other.organization_id', '=', 'o.id')
              .where('other.user_id', '!=', userId),
          ),
        ),
      )
      .execute();
  }

  /** Locks the organization's row and reads what deleting the user would take from it. */
  async #holding(trx: Transaction<Database>, organizationId: number, userId: number) {
    const locked = await trx
      .updateTable('organizations')
      .set({ updated_at: this.now() })
      .where('id', '=', organizationId)
      .returning(['id', 'name'])
      .executeTakeFirstOrThrow();
    const members = await trx
      .selectFrom('organization_members')
      .select(['user_id', 'role'])
      .where('organization_id', '=', organizationId)
      .execute();
    const role = members.find((m) => m.user_id === userId)?.role ?? '';
    const owners = members.filter((m) => m.role === 'owner').length;
    return { ...locked, role, members: members.length, lastOwner: role === 'owner' && owners === 1 };
  }

  /** Runs `work` in a transaction that holds the organization's row (see the class comment). */
  #underLock<T>(organizationId: number, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.deps.db.transaction().execute(async (trx) => {
      const held = await trx
        .updateTable('organizations')
        .set({ updated_at: this.now() })
        .where('id', '=', organizationId)
        .executeTakeFirst();
      if (Number(held.numUpdatedRows) === 0) throw OrganizationError.notFound();
      return work(trx);
    });
  }

  async #member(db: Kysely<Database>, organizationId: number, userId: number): Promise<MemberRow> {
    const row = await db
      .selectFrom('organization_members')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) throw new OrganizationError(404, 'That user is not a member of this organization.');
    return row;
  }

  async #actor(
    db: Kysely<Database>,
    actorId: number,
    organizationId: number,
    permission: Permission,
    what: string,
  ): Promise<MemberRow> {
    const actor = await db
      .selectFrom('organization_members')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', actorId)
      .executeTakeFirst();
    if (!actor) throw OrganizationError.notFound();
    if (!this.deps.roles.can(actor.role, permission)) throw OrganizationError.forbidden(what);
    return actor;
  }

  /** Refuses to take an owner away when they are the last one. */
  private async keepAnOwner(db: Kysely<Database>, organizationId: number): Promise<void> {
    const { owners } = await db
      .selectFrom('organization_members')
      .select((eb) => eb.fn.countAll().as('owners'))
      .where('organization_id', '=', organizationId)
      .where('role', '=', 'owner')
      .executeTakeFirstOrThrow();
    if (Number(owners) <= 1) throw OrganizationError.lastOwner();
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

function lastOwnerOf(names: string[]): UserDeletionRefused {
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return new UserDeletionRefused(
    `You are the last owner of ${list}, which other people belong to. Transfer ownership or delete ${list} first.`,
  );
}

function validName(name: string): string {
  const clean = name.trim();
  if (clean === '') throw new ValidationError({ name: ['The name field is required.'] });
  if (clean.length > MAX_NAME)
    throw new ValidationError({ name: [`The name field must not be greater than ${MAX_NAME} characters.`] });
  return clean;
}
