// Baseline: CPU time of N raw `jose` SignJWT signatures with the server's own key and the claims
// of a client_credentials token, one at a time. Prints JSON { cpuUsPerSign }.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importPKCS8, SignJWT } from 'jose';

const [storagePath, alg, count] = [process.argv[2]!, process.argv[3]!, Number(process.argv[4] ?? 2000)];
const key = await importPKCS8(readFileSync(join(storagePath, 'oauth-private.key'), 'utf8'), alg);
const sign = (n: number) => {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ client_id: 'bench-client', scope: 'check-status', scopes: ['check-status'] })
    .setProtectedHeader({ alg, typ: 'at+jwt', kid: 'bench' })
    .setIssuer('http://127.0.0.1:3000')
    .setSubject('bench-client')
    .setAudience('bench-client')
    .setJti(`token-${n}`)
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(key);
};
for (let i = 0; i < 200; i++) await sign(i);
const start = process.cpuUsage();
for (let i = 0; i < count; i++) await sign(i);
const used = process.cpuUsage(start);
process.stdout.write(`${JSON.stringify({ cpuUsPerSign: (used.user + used.system) / count })}\n`);
