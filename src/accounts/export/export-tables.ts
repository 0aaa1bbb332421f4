/**
 * The tables that hold a user's data, each with the columns a data export shows. Columns are
 * listed, never `*`: secrets, their hashes and fingerprints (a session id, a key's hash, a refresh
 * token's id, a link's token) stay out, and a column added later stays out until named here.
 */
export interface ExportTable {
  table: string;
  columns: readonly string[];
  /** The plans module keeps user ids as text. */
  userIdAsText?: boolean;
}

export const EXPORT_TABLES: readonly ExportTable[] = [
  { table: 'sessions', columns: ['ip_address', 'user_agent', 'last_activity', 'expires_at'] },
  { table: 'account_devices', columns: ['first_seen_at', 'last_seen_at'] },
  { table: 'account_tokens', columns: ['purpose', 'email', 'created_at', 'expires_at', 'used_at'] },
  { table: 'account_notifications', columns: ['kind', 'key', 'created_at'] },
  { table: 'account_two_factor', columns: ['confirmed_at', 'failed_attempts', 'locked_until', 'created_at'] },
  { table: 'account_recovery_codes', columns: ['used_at', 'created_at'] },
  {
    table: 'oauth_clients',
    columns: [
      'id',
      'name',
      'redirect',
      'personal_access_client',
      'password_client',
      'first_party',
      'scopes',
      'grant_types',
      'revoked',
      'created_at',
      'updated_at',
      'last_used_at',
    ],
  },
  {
    table: 'oauth_access_tokens',
    columns: [
      'id',
      'client_id',
      'name',
      'scopes',
      'audience',
      'revoked',
      'created_at',
      'expires_at',
      'last_used_at',
    ],
  },
  {
    table: 'oauth_auth_codes',
    columns: ['client_id', 'scopes', 'redirect_uri', 'revoked', 'created_at', 'expires_at'],
  },
  { table: 'oauth_device_codes', columns: ['client_id', 'scopes', 'status', 'created_at', 'expires_at'] },
  { table: 'oauth_logout_sessions', columns: ['client_id', 'created_at'] },
  // The passkeys' names and dates, never the credential id or public key.
  {
    table: 'signin_passkeys',
    columns: ['id', 'name', 'device_type', 'backed_up', 'transports', 'created_at', 'last_used_at'],
  },
  // The remembered browsers, never the secret's hash.
  {
    table: 'signin_remembered_devices',
    columns: ['id', 'user_agent', 'ip_address', 'created_at', 'last_used_at', 'expires_at'],
  },
  // Which providers are linked and with which address; the provider's subject stays out.
  { table: 'signin_upstream_identities', columns: ['provider', 'email', 'created_at', 'last_used_at'] },
  {
    table: 'api_keys',
    columns: [
      'id',
      'name',
      'prefix',
      'last_four',
      'scopes',
      'rate_limit_per_minute',
      'revoked',
      'created_at',
      'updated_at',
      'expires_at',
      'last_used_at',
    ],
  },
  {
    table: 'subscriptions',
    columns: [
      'name',
      'stripe_id',
      'stripe_plan',
      'braintree_id',
      'braintree_plan',
      'quantity',
      'status',
      'trial_ends_at',
      'ends_at',
      'created_at',
      'updated_at',
    ],
  },
  { table: 'organization_members', columns: ['organization_id', 'role', 'created_at', 'updated_at'] },
  { table: 'audit_events', columns: ['at', 'kind', 'actor', 'subject', 'ip', 'user_agent', 'details'] },
  {
    table: 'api_usage_daily',
    columns: ['day', 'client_id', 'credential_kind', 'route', 'meter', 'units'],
    userIdAsText: true,
  },
  {
    table: 'usage_reports',
    columns: ['meter', 'period_start', 'reported_units', 'pending_units', 'updated_at'],
    userIdAsText: true,
  },
];

/** The user's own columns an export shows (never the password hash). */
export const ACCOUNT_COLUMNS = [
  'id',
  'name',
  'email',
  'email_verified_at',
  'created_at',
  'updated_at',
  'stripe_id',
  'braintree_id',
  'paypal_email',
  'card_brand',
  'card_last_four',
  'trial_ends_at',
] as const;
