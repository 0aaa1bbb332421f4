// Where an issued token's CPU goes, in process (no sockets, no load generator): stages of the
// token endpoint measured alone, rounds interleaved, CPU time per operation for the process (all
// threads: the pool's signatures and argon2 hashes count) and for the main thread alone (what
// bounds the rate when the pool has a core of its own). Each stage includes the ones before it:
//   raw       node:crypto sign of the token's bytes with the server's key (what any issuer pays)
//   jose      jose SignJWT with the same key (the bench's jose-sign baseline)
//   signer    AccessTokenSigner.sign (claims, JSON, base64url, signature)
//   fetch     app.fetch of POST /oauth/token: entry, router, throttles, client authentication,
//             the grant, the row insert (batched), AccessTokenCreated, the JSON response. The
//             Request is undici's, dearer than the node adapter's: compare fetch with fetch.
// With --grant password: argon2 (verify alone), attempt (Users.attempt: user select + verify),
// fetch.
//   npx tsx bench/issuance/stages.ts [--alg EdDSA] [--grant client_credentials|password]
//                                    [--ops 3000] [--rounds 3] [--concurrency 10] [--only fetch]
// --only (a regular expression on stage names) measures those stages alone, say under --cpu-prof:
//   node --import tsx --cpu-prof --cpu-prof-dir=/tmp/p bench/issuance/stages.ts --only fetch
// BENCH_DATABASE_URL=postgres://… runs it on that database instead of a temporary SQLite file.
import { createPrivateKey, sign as nodeSign } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { verify } from '@node-rs/argon2';
import { SignJWT } from 'jose';
import { Users } from 'tollgate';
import { AccessTokenSigner, Clients, installKeys } from 'tollgate/oauth';
import { createApp } from '../../app/bootstrap.js';
import { median } from '../lib/median.js';

const { values } = parseArgs({
  options: {
    alg: { type: 'string', default: 'EdDSA' },
    grant: { type: 'string', default: 'client_credentials' },
    ops: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '10' },
    only: { type: 'string' },
  },
});
const password = values.grant === 'password';
const ops = Number(values.ops ?? (password ? 200 : 3000));
const concurrency = Number(values.concurrency);

process.env.OAUTH_SIGNING_ALG = values.alg;
// As the bench's password row: one user from every connection at once, under the login limits.
process.env.THROTTLE_LOGIN_ACCOUNT ??= '1000000/60';
const dir = mkdtempSync(join(tmpdir(), 'tollgate-stages-'));
const app = await createApp({
  storagePath: dir,
  database: { url: process.env.BENCH_DATABASE_URL || join(dir, 'bench.sqlite') },
  log: { level: 'warn' },
  plans: { definitions: {} },
});
installKeys(app.config.storagePath, app.config.oauth.signingAlgorithm);
await app.migrate();
await app.boot();

const secret = 'correct horse battery staple';
const email = `stages-${process.pid}@example.test`;
const user = await app.container.make(Users).create({ name: 'Stages', email, password: secret });
const created = await app.container
  .make(Clients)
  .create({ name: 'Stages', redirect: '', ...(password ? { password: true } : {}) });
const client = created.client;
const basic = `Basic ${Buffer.from(`${client.id}:${created.plainSecret}`).toString('base64')}`;
const fields: Record<string, string> = password
  ? { grant_type: 'password', username: email, password: secret, scope: 'check-status' }
  : { grant_type: 'client_credentials', scope: 'check-status' };
const body = new URLSearchParams(fields).toString();

const signer = app.container.make(AccessTokenSigner);
const privateKey = createPrivateKey(readFileSync(join(dir, 'oauth-private.key')));
const raw =
  values.alg === 'EdDSA'
    ? { digest: null, key: privateKey }
    : {
        digest: 'sha256',
        key: values.alg === 'ES256' ? { key: privateKey, dsaEncoding: 'ieee-p1363' as const } : privateKey,
      };
const header = `${Buffer.from(JSON.stringify({ alg: values.alg, typ: 'at+jwt', kid: 'bench' })).toString('base64url')}.`;
const now = () => Math.floor(Date.now() / 1000);
const subject = () => ({
  tokenId: `${Date.now()}`,
  userId: null,
  clientId: client.id,
  scopes: ['check-status'],
  issuedAt: now(),
  expiresAt: now() + 3600,
});
const hashed = String(
  (await app.db.selectFrom('users').select('password').where('id', '=', user.id).executeTakeFirstOrThrow())
    .password,
);

const stages: Record<string, () => Promise<unknown>> = password
  ? {
      argon2: () => verify(hashed, secret),
      attempt: () => app.container.make(Users).attempt(email, secret),
      fetch: () => post(),
    }
  : {
      raw: async () =>
        nodeSign(
          raw.digest,
          Buffer.from(header + Buffer.from(JSON.stringify(subject())).toString('base64url')),
          raw.key,
        ),
      jose: () =>
        new SignJWT({ client_id: client.id, scope: 'check-status', scopes: ['check-status'] })
          .setProtectedHeader({ alg: values.alg!, typ: 'at+jwt', kid: 'bench' })
          .setIssuer('http://127.0.0.1:3000')
          .setSubject(client.id)
          .setAudience(client.id)
          .setJti(`token-${Date.now()}`)
          .setIssuedAt(now())
          .setExpirationTime(now() + 3600)
          .sign(privateKey),
      signer: () => signer.sign(subject()),
      fetch: () => post(),
    };

async function post(): Promise<void> {
  const res = await app.fetch(
    new Request('http://127.0.0.1/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
      body,
    }),
  );
  if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

/** The main thread's CPU time so far, µs (Linux; clock ticks of 10 ms, so measure long enough). */
function mainThreadCpu(): number {
  const fields = readFileSync(`/proc/${process.pid}/task/${process.pid}/stat`, 'utf8')
    .split(') ')[1]!
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** CPU µs per operation over `count` operations, `concurrency` in flight: the process, the main thread. */
async function measure(operation: () => Promise<unknown>, count: number): Promise<[number, number]> {
  let next = 0;
  const worker = async () => {
    while (next++ < count) await operation();
  };
  const before = process.cpuUsage();
  const mainBefore = mainThreadCpu();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const used = process.cpuUsage(before);
  return [(used.user + used.system) / count, (mainThreadCpu() - mainBefore) / count];
}

if (values.only)
  for (const name of Object.keys(stages)) if (!new RegExp(values.only).test(name)) delete stages[name];
for (const operation of Object.values(stages)) await measure(operation, Math.ceil(ops / 3)); // warm-up
const results: Record<string, number[]> = Object.fromEntries(Object.keys(stages).map((name) => [name, []]));
const onMain: Record<string, number[]> = Object.fromEntries(Object.keys(stages).map((name) => [name, []]));
for (let round = 0; round < Number(values.rounds); round++) {
  for (const [name, operation] of Object.entries(stages)) {
    const [all, main] = await measure(operation, ops);
    results[name]!.push(all);
    onMain[name]!.push(main);
  }
}
console.log(
  JSON.stringify({
    algorithm: values.alg,
    grant: values.grant,
    database: app.config.database.url.startsWith('postgres') ? 'postgres' : 'sqlite',
    ops,
    concurrency,
    cpuUsPerOp: Object.fromEntries(Object.entries(results).map(([k, v]) => [k, Math.round(median(v))])),
    mainThreadUsPerOp: Object.fromEntries(Object.entries(onMain).map(([k, v]) => [k, Math.round(median(v))])),
    rounds: Object.fromEntries(Object.entries(results).map(([k, v]) => [k, v.map(Math.round)])),
  }),
);
await app.close();
process.exit(0);
