import { resolve } from 'node:path';
import type { Command } from 'commander';
import { clearRouteCache, writeRouteCache } from '../../http/route-cache.js';
import { formatRouteTable, listRoutes } from '../../http/route-list.js';
import { withApplication } from '../context.js';

interface ListOptions {
  json?: boolean;
  name?: string;
  path?: string;
  method?: string;
}

export function register(program: Command): void {
  program
    .command('route:cache')
    .description('Compile the route table to the route cache file (run at deployment).')
    .action(() =>
      withApplication(async (app) => {
        const path = resolve(app.config.routes.cachePath);
        // Declarations must be evaluated afresh, not read back from the cache being replaced.
        clearRouteCache(path);
        await app.boot();
        const file = app.router.toCache(app.clock.now());
        writeRouteCache(path, file);
        console.log(`Routes cached: ${file.routes.length} routes written to ${path}.`);
      }),
    );

  program
    .command('route:clear')
    .description('Remove the route cache file, so routes are read from their declarations again.')
    .action(() =>
      withApplication(async (app) => {
        const path = resolve(app.config.routes.cachePath);
        console.log(clearRouteCache(path) ? `Route cache cleared (${path}).` : `No route cache at ${path}.`);
      }),
    );

  program
    .command('route:list')
    .description('List the routes: verb, path, name, action and middleware.')
    .option('--json', 'print the routes as JSON')
    .option('--name <text>', 'only routes whose name contains this')
    .option('--path <text>', 'only routes whose path contains this')
    .option('--method <verb>', 'only routes answering this verb')
    .action((options: ListOptions) =>
      withApplication(async (app) => {
        await app.boot();
        const rows = (await listRoutes(app.router)).filter(
          (r) =>
            (!options.name || (r.name ?? '').includes(options.name)) &&
            (!options.path || r.path.includes(options.path)) &&
            (!options.method || r.methods.includes(options.method.toUpperCase())),
        );
        if (options.json) {
          console.log(JSON.stringify(rows, null, 2));
          return;
        }
        console.log(formatRouteTable(rows));
        const source = app.router.cachedFrom ? ` (from the route cache ${app.router.cachedFrom})` : '';
        console.log(`\n${rows.length} route${rows.length === 1 ? '' : 's'}${source}.`);
      }),
    );
}
