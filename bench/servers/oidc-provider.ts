// Peer: panva's `oidc-provider` issuing client_credentials access tokens with its default
// in-memory adapter, on a plain `node:http` server. `BENCH_FORMAT` picks `jwt` (RFC 9068 access
// tokens, which it only issues for a resource server, RFC 8707) or `opaque`; `BENCH_ALG` the
// JWT signing algorithm. A `jwt` token never reaches the adapter, whichever it is: the format's
// `getValueAndPayload` returns no payload and `BaseModel.save` then only emits `issued`
// (oidc-provider 9.13.3, lib/models/formats/jwt.js:175-177, lib/models/base_model.js:87-94), so
// these rows need no database adapter; the `opaque` one stores through the in-memory adapter.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';
import { announce, exitOnSigterm } from './announce.js';

const format = (process.env.BENCH_FORMAT ?? 'jwt') as 'jwt' | 'opaque';
const alg = process.env.BENCH_ALG ?? 'RS256';
const resource = 'urn:tollgate:bench';

async function privateJwk(algorithm: string) {
  const { privateKey } = await generateKeyPair(algorithm, { extractable: true });
  return { ...(await exportJWK(privateKey)), alg: algorithm, use: 'sig', kid: algorithm };
}

const server = createServer();
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  void start(port);
});

async function start(port: number) {
  const provider = new Provider(`http://127.0.0.1:${port}`, {
    clients: [
      {
        client_id: 'bench-client',
        client_secret: 'bench-secret-bench-secret-bench-secret',
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        scope: 'check-status',
      },
    ],
    scopes: ['check-status'],
    // ID tokens default to RS256, so the keystore always holds an RSA key.
    jwks: {
      keys:
        alg === 'RS256' ? [await privateJwk('RS256')] : [await privateJwk('RS256'), await privateJwk(alg)],
    },
    cookies: { keys: ['bench-cookie-key'] },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        getResourceServerInfo: () => ({
          scope: 'check-status',
          audience: resource,
          accessTokenTTL: 3600,
          accessTokenFormat: format,
          ...(format === 'jwt' ? { jwt: { sign: { alg } } } : {}),
        }),
      },
    },
  });
  server.on('request', provider.callback());
  exitOnSigterm();
  announce({
    port,
    fixtures: { clientId: 'bench-client', clientSecret: 'bench-secret-bench-secret-bench-secret' },
  });
}
