import { type ConfigSlice, envInt } from '../core/config.js';

declare module '../core/config.js' {
  interface TollgateConfig {
    http: { host: string; port: number };
    /** `controllersPath`: the root that string actions (`'Admin/PhotoController@show'`) are relative to. */
    routes: { cachePath: string; controllersPath: string };
  }
}

export const httpConfig: ConfigSlice<'http' | 'routes'> = {
  defaults: {
    http: { host: '127.0.0.1', port: 3000 },
    routes: { cachePath: 'storage/routes.json', controllersPath: 'app/controllers' },
  },
  fromEnv: (env) => ({
    http: { host: env.HOST || undefined, port: envInt(env.PORT, 'PORT') },
    routes: {
      cachePath: env.ROUTE_CACHE_PATH || undefined,
      controllersPath: env.ROUTE_CONTROLLERS_PATH || undefined,
    },
  }),
};
