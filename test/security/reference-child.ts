// The reference service as the browser tests serve it (createApp, installOAuth, listen on a free
// port), on a fresh test database (SQLite, or PostgreSQL under TEST_DATABASE_URL), in a process of
// its own so a test can read its memory from /proc. Prints `READY {"url": …}`; SIGTERM stops it
// and drops the database.
import { startReferenceServer } from '../browser/server.js';

const server = await startReferenceServer();
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
