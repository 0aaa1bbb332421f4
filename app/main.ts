import { closeOnSignals, listen } from '../src/http/server.js';
import { createApp } from './bootstrap.js';

const app = await createApp();
await app.migrate();
await app.boot();
const server = await listen(app, app.config.http.host, app.config.http.port);
closeOnSignals(app, server);
app.logger.info({ url: server.url, database: app.engine }, 'Tollgate is listening');
console.log(`Tollgate is running at ${server.url}`);
