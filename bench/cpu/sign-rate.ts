// Baseline: how many access-token-shaped JWTs `jose` signs per second, one at a time (one core),
// for each algorithm Tollgate can be configured with. Token issuance cannot beat this.
import { generateKeyPair, SignJWT } from 'jose';
import { exitOnSigterm, report } from '../servers/announce.js';
import { loopSettings, measureLoop } from './loop.js';

exitOnSigterm();
const algorithms = (process.env.BENCH_ALGS ?? 'RS256,ES256,EdDSA').split(',');
const settings = loopSettings();
const rates: Record<string, Awaited<ReturnType<typeof measureLoop>>> = {};

for (const alg of algorithms) {
  const { privateKey } = await generateKeyPair(alg);
  let n = 0;
  const sign = () => {
    const now = Math.floor(Date.now() / 1000);
    n++;
    // The claims of an RFC 9068 access token, as an issuer would sign them.
    return new SignJWT({ client_id: 'bench-client', scopes: ['check-status'] })
      .setProtectedHeader({ alg, typ: 'at+jwt', kid: 'bench' })
      .setIssuer('http://127.0.0.1:3000')
      .setAudience('bench-client')
      .setSubject('bench-client')
      .setJti(`token-${n}`)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + 3600)
      .sign(privateKey);
  };
  rates[alg] = await measureLoop(sign, { ...settings, concurrency: 1 });
}
report({ rates });
