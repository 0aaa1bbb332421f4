// The reference service as the browser tests serve it (createApp, installOAuth, listen on a free
// port), on a fresh test database of the engine its parent names (TOLLGATE_TEST_ENGINE), in a
// process of its own so a test can read its memory from /proc. Prints `READY {"url": …}`; SIGTERM
// stops it and drops the database.
import { startReferenceServer } from '../browser/server.js';
import type { Engine } from '../support/engines.js';

const server = await startReferenceServer({}, { engine: process.env.TOLLGATE_TEST_ENGINE as Engine });
process.stdout.write(
  `READY ${JSON.stringify({
    url: server.url,
    storagePath: server.app.config.storagePath,
    databaseUrl: server.app.config.database.url,
  })}\n`,
);

process.once('SIGTERM', async () => {
  await server.stop();
  process.exit(0);
});
