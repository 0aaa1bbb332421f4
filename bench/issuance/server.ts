// The reference service on a temporary SQLite file (or BENCH_DATABASE_URL), one confidential
// client, served on a free loopback port. Talks to run.ts over IPC: `ready` with the port and the
// client, then answers `cpu` with this process's CPU time so far (all threads, µs).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listen } from 'tollgate';
import { Clients, installKeys } from 'tollgate/oauth';
import { createApp } from '../../app/bootstrap.js';

const dir = mkdtempSync(join(tmpdir(), 'tollgate-issuance-'));
const app = await createApp({
  storagePath: dir,
  database: { url: process.env.BENCH_DATABASE_URL || join(dir, 'bench.sqlite') },
  log: { level: 'warn' },
});
installKeys(app.config.storagePath, app.config.oauth.signingAlgorithm);
await app.migrate();
await app.boot();
const server = await listen(app, '127.0.0.1', 0);
const { client, plainSecret } = await app.container
  .make(Clients)
  .create({ name: 'Bench service', redirect: '' });

process.on('message', (message: { type: string }) => {
  if (message.type === 'cpu') process.send!({ type: 'cpu', usage: process.cpuUsage() });
  if (message.type === 'stop')
    void server
      .close()
      .then(() => app.close())
      .then(() => process.exit(0));
});
process.send!({
  type: 'ready',
  port: server.port,
  clientId: client.id,
  clientSecret: plainSecret,
  algorithm: app.config.oauth.signingAlgorithm,
  storagePath: dir,
});
