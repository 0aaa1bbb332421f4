declare module '../../database/types.js' {
  interface Database {
    organization_seat_syncs: OrganizationSeatSyncsTable;
  }
}

/**
 * An organization whose seats are to be set at the provider: written before a sync, deleted by the
 * sync that succeeds, so one that failed (or never finished) is retried (`SeatSync.retryPending`).
 */
export interface OrganizationSeatSyncsTable {
  organization_id: number;
  /** The latest sync's own id: a sync clears the row only if no sync started after it. */
  attempt: string;
  /** When the seats first went unconfirmed. */
  since: string;
}
