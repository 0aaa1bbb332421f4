import type { Context } from 'hono';
import { scriptBundle } from '../scripts.js';

/** `GET /assets/app.js`: the dashboard's script bundle, cached for good under a versioned URL. */
export class ScriptController {
  async show(c: Context): Promise<Response> {
    const { code, version } = await scriptBundle();
    const etag = `"${version}"`;
    const headers = {
      'Content-Type': 'text/javascript; charset=utf-8',
      ETag: etag,
      'Cache-Control': c.req.query('v') ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
    };
    if (c.req.header('if-none-match') === etag) return c.body(null, 304, headers);
    return c.body(code, 200, headers);
  }
}
