import { describe, expect, it } from 'vitest';
import type { ClientRecord } from '../records.js';
import { hashSecret } from '../secrets.js';
import type { ClientStore } from '../stores/contracts.js';
import { authenticateClient } from './authenticate-client.js';

const client = (id: string, secret: string | null): ClientRecord => ({
  id,
  userId: null,
  name: id,
  secretHash: secret === null ? null : hashSecret(secret),
  redirect: 'https://x.example/cb',
  resourceServer: false,
  personalAccessClient: false,
  passwordClient: false,
  firstParty: false,
  requirePushedAuthorizationRequests: false,
  allowedScopes: null,
  grantTypes: null,
  revoked: false,
  createdAt: '',
  updatedAt: '',
});
const records = new Map([
  ['conf', client('conf', 's3cret:+/')],
  ['pub', client('pub', null)],
  ['gone', { ...client('gone', 'x'), revoked: true }],
]);
const store = { find: async (id: string) => records.get(id) } as ClientStore;
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

describe('client authentication (RFC 6749 §2.3.1)', () => {
  it('accepts form fields and HTTP Basic (form-urlencoded id and secret)', async () => {
    await expect(
      authenticateClient(store, { params: { client_id: 'conf', client_secret: 's3cret:+/' } }),
    ).resolves.toMatchObject({ id: 'conf' });
    await expect(
      authenticateClient(store, { params: {}, authorization: basic('conf', 's3cret:+/') }),
    ).resolves.toMatchObject({ id: 'conf' });
  });

  it('a public client is identified by client_id alone', async () => {
    await expect(authenticateClient(store, { params: { client_id: 'pub' } })).resolves.toMatchObject({
      id: 'pub',
    });
  });

  it('invalid_client for a wrong or missing secret, an unknown or revoked client', async () => {
    for (const params of [
      { client_id: 'conf', client_secret: 'nope' },
      { client_id: 'conf' },
      { client_id: 'ghost', client_secret: 'x' },
      { client_id: 'gone', client_secret: 'x' },
    ]) {
      await expect(authenticateClient(store, { params })).rejects.toMatchObject({
        code: 'invalid_client',
        status: 401,
      });
    }
  });

  it('invalid_request for no client_id or two methods at once', async () => {
    await expect(authenticateClient(store, { params: {} })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    await expect(
      authenticateClient(store, {
        params: { client_secret: 'x' },
        authorization: basic('conf', 's3cret:+/'),
      }),
    ).rejects.toMatchObject({ code: 'invalid_request' });
  });
});
