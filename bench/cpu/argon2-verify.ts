// Ceiling for the password grant: argon2id verifications per second with Tollgate's own hashing
// parameters (src/auth/password.ts), as many in flight as the load has connections.
import { hash, verify } from '@node-rs/argon2';
import { exitOnSigterm, report } from '../servers/announce.js';
import { loopSettings, measureLoop } from './loop.js';

exitOnSigterm();
const concurrency = Number(process.env.BENCH_CONNECTIONS ?? 10);
const hashed = await hash('correct horse battery staple');
const rate = await measureLoop(() => verify(hashed, 'correct horse battery staple'), {
  ...loopSettings(),
  concurrency,
});
report({ rates: { argon2id: rate } });
