import type { Context } from 'hono';
import { stylesheet, stylesheetVersion } from './stylesheet.js';

const etag = `"${stylesheetVersion}"`;

/** `GET /assets/app.css`. */
export class StylesheetController {
  show(c: Context): Response {
    const headers = {
      'Content-Type': 'text/css; charset=utf-8',
      ETag: etag,
      // Pages link `?v=<hash>`, so a versioned URL never changes content.
      'Cache-Control': c.req.query('v') ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
    };
    if (c.req.header('if-none-match') === etag) return c.body(null, 304, headers);
    return c.body(stylesheet, 200, headers);
  }
}
