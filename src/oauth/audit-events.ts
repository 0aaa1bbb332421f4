import type { Application } from '../kernel/application.js';
import { AuditLog } from '../observability/audit/audit-log.js';
import {
  ApiKeyRevoked,
  AuthorizedTokenRevoked,
  ClientRevoked,
  ClientSecretRotated,
  ClientUpdated,
  ConsentGranted,
  ConsentRevoked,
  CredentialCreated,
  PersonalAccessTokenRevoked,
} from './events.js';
import { OAuthStoreKey } from './stores/contracts.js';

/**
 * With the audit log on, records what happens to the credentials that act for a user: clients
 * (created, updated, secret rotated, deleted), personal access tokens and API keys (created,
 * revoked), and approvals (granted, revoked). Tokens the grants issue are counted, not audited.
 */
export function auditOAuthEvents(app: Application): void {
  if (!app.container.has(AuditLog)) return;
  const audit = app.container.make(AuditLog);
  const { events, container } = app;
  /** The client's owner: whose security log shows what happened to it (null: an operator's client). */
  const ownerOf = async (clientId: string) =>
    (await container.make(OAuthStoreKey).clients.find(clientId))?.userId ?? null;
  /**
   * Whose log shows a change to a client, and who made it: the owner, else (an organization's
   * client) the member who acted; no actor named, the log's default (the request's user, `system`).
   */
  const byWhom = (owner: number | null, actorId: number | null) => ({
    userId: owner ?? actorId,
    ...(actorId === null ? {} : { actor: `user:${actorId}` }),
  });

  events.listen(CredentialCreated, ({ kind, id, userId, name }) => {
    audit.record({ kind: `${kind}.created`, userId, subject: `${kind}:${id}`, details: { name } });
  });
  events.listen(ClientUpdated, ({ clientId, userId, actorId }) => {
    audit.record({ kind: 'client.updated', ...byWhom(userId, actorId), subject: `client:${clientId}` });
  });
  events.listen(ClientSecretRotated, async ({ clientId, actorId }) => {
    audit.record({
      kind: 'client.secret-rotated',
      ...byWhom(await ownerOf(clientId), actorId),
      subject: `client:${clientId}`,
    });
  });
  events.listen(ClientRevoked, async ({ clientId, actorId }) => {
    audit.record({
      kind: 'client.deleted',
      ...byWhom(await ownerOf(clientId), actorId),
      subject: `client:${clientId}`,
    });
  });
  events.listen(PersonalAccessTokenRevoked, ({ tokenId, userId }) => {
    audit.record({
      kind: 'personal-access-token.revoked',
      userId,
      subject: `personal-access-token:${tokenId}`,
    });
  });
  events.listen(AuthorizedTokenRevoked, ({ tokenId, userId, clientId }) => {
    audit.record({
      kind: 'access-token.revoked',
      userId,
      subject: `access-token:${tokenId}`,
      details: { client: clientId },
    });
  });
  events.listen(ApiKeyRevoked, ({ keyId, userId }) => {
    audit.record({ kind: 'api-key.revoked', userId, subject: `api-key:${keyId}` });
  });
  events.listen(ConsentGranted, ({ userId, clientId, scopes }) => {
    audit.record({ kind: 'consent.granted', userId, subject: `client:${clientId}`, details: { scopes } });
  });
  events.listen(ConsentRevoked, ({ userId, clientId }) => {
    audit.record({ kind: 'consent.revoked', userId, subject: `client:${clientId}` });
  });
}
