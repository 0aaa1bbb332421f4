import type { ApiKeys, Clients, PersonalAccessTokens } from 'tollgate/oauth';
import type { UsageGrouping } from './usage-view.js';

const KINDS: Record<string, string> = {
  oauth: 'OAuth token',
  personal: 'Personal token',
  api_key: 'API key',
  cookie: 'This dashboard',
};

/**
 * Names people recognise for the groups of the usage table: a client's name, a key's or token's
 * name ("API key “Billing sync”"), the route as recorded. What can no longer be found (a deleted
 * client, a purged token) keeps its kind and the last characters of its id.
 */
export class UsageLabels {
  constructor(
    private readonly clients: Clients,
    private readonly keys: ApiKeys,
    private readonly tokens: PersonalAccessTokens,
  ) {}

  async label(grouping: UsageGrouping, id: string, userId: number): Promise<string> {
    if (grouping === 'route') return id;
    if (grouping === 'client') {
      if (id === '') return 'No client (API keys, this dashboard)';
      return (await this.clients.find(id))?.name ?? `Deleted client …${id.slice(-6)}`;
    }
    const [kind = '', credentialId = ''] = id.split(':');
    const name =
      kind === 'api_key'
        ? (await this.keys.findForUser(credentialId, userId))?.name
        : kind === 'personal'
          ? (await this.tokens.findForUser(credentialId, userId))?.name
          : undefined;
    const what = KINDS[kind] ?? kind;
    if (name) return `${what} “${name}”`;
    return credentialId ? `${what} …${credentialId.slice(-6)}` : what;
  }

  labels(grouping: UsageGrouping, ids: string[], userId: number): Promise<Map<string, string>> {
    return Promise.all(ids.map(async (id) => [id, await this.label(grouping, id, userId)] as const)).then(
      (pairs) => new Map(pairs),
    );
  }
}
