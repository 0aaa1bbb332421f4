import { describe, expect, it } from 'vitest';
import { EventDispatcher } from '../../core/events.js';
import { ClientUpdated } from '../events.js';
import type { ClientRecord } from '../records.js';
import { LiveClients } from './live-clients.js';

const client = (redirect: string): ClientRecord => ({
  id: 'c1',
  userId: null,
  name: 'App',
  secretHash: null,
  redirect,
  personalAccessClient: false,
  passwordClient: false,
  firstParty: false,
  allowedScopes: null,
  grantTypes: null,
  resourceServer: false,
  requirePushedAuthorizationRequests: false,
  revoked: false,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
});

/** A store whose reads answer when the test says, with the row as it is then. */
function slowStore() {
  let row = client('https://old.example/cb');
  const waiting: Array<() => void> = [];
  return {
    set: (next: ClientRecord) => {
      row = next;
    },
    answer: () => {
      for (const go of waiting.splice(0)) go();
    },
    find: (_id: string) => {
      const read = row;
      return new Promise<ClientRecord>((resolve) => waiting.push(() => resolve(read)));
    },
    wouldFetch: () => false,
  };
}

describe('LiveClients', () => {
  it('keeps a client, and reads it again once it is forgotten or cleared', async () => {
    const store = slowStore();
    const events = new EventDispatcher();
    const clients = new LiveClients(store, events);
    const first = clients.find('c1');
    store.answer();
    const cached = (await first)!;
    expect(clients.holds(cached)).toBe(true);
    expect(await clients.find('c1')).toBe(cached);

    await events.dispatch(new ClientUpdated('c1', null));
    expect(clients.holds(cached)).toBe(false);

    const again = clients.find('c1');
    store.answer();
    const kept = (await again)!;
    expect(clients.holds(kept)).toBe(true);
    clients.clear();
    expect(clients.holds(kept)).toBe(false);
  });

  it('a read that a change overtook (it began before the update) is returned but not kept', async () => {
    const store = slowStore();
    const clients = new LiveClients(store, new EventDispatcher());
    const before = clients.find('c1');
    store.set(client('https://new.example/cb'));
    clients.forget('c1');
    store.answer();
    const stale = (await before)!;
    expect(stale.redirect).toBe('https://old.example/cb');
    expect(clients.holds(stale)).toBe(false);

    const fresh = clients.find('c1');
    store.answer();
    expect((await fresh)?.redirect).toBe('https://new.example/cb');
  });
});
