import type { Generated, Selectable } from 'kysely';
import type { NullableTimestamp, Timestamp } from '../database/types.js';

declare module '../database/types.js' {
  interface Database {
    organizations: OrganizationsTable;
    organization_members: OrganizationMembersTable;
    organization_invitations: OrganizationInvitationsTable;
  }
}

/**
 * An organization: a team of users. What it will own later (OAuth clients, API keys, a billing
 * customer) points at it with an `organization_id` column on those tables, so this one stays small.
 */
export interface OrganizationsTable {
  id: Generated<number>;
  name: string;
  /** Who may join by their verified e-mail address's domain (lower case); null: invitations only. */
  auto_join_domain?: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A user's membership: one row per (organization, user), with the role that decides what they may do. */
export interface OrganizationMembersTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number;
  role: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/**
 * An invitation mailed to an address: only the SHA-256 of the link's token is stored; it ends when
 * accepted, revoked, replaced by a resend, or past `expires_at`.
 */
export interface OrganizationInvitationsTable {
  id: Generated<number>;
  organization_id: number;
  email: string;
  role: string;
  token_hash: string;
  invited_by: number | null;
  expires_at: Timestamp;
  accepted_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  created_at: Timestamp;
}

/** An organization as the membership pages show it (its billing columns are billing's: `billing/`). */
export type OrganizationRow = Pick<
  Selectable<OrganizationsTable>,
  'id' | 'name' | 'auto_join_domain' | 'created_at' | 'updated_at'
>;
export type MemberRow = Selectable<OrganizationMembersTable>;
export type InvitationRow = Selectable<OrganizationInvitationsTable>;
