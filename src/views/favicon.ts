import type { Context } from 'hono';

/** A barrier arm over a post: the site's icon, as SVG (every current browser takes it). */
export const faviconSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#2b59c3"/><rect x="6" y="8" width="5" height="18" rx="1" fill="#fff"/><rect x="9" y="10" width="19" height="4" rx="2" fill="#fff" transform="rotate(-12 9 12)"/></svg>';

/** `GET /favicon.svg`, and `/favicon.ico` for browsers that ask before reading the page's link. */
export class FaviconController {
  show(c: Context): Response {
    return c.body(faviconSvg, 200, {
      'Content-Type': 'image/svg+xml',
      'Cache-Control': 'public, max-age=86400',
    });
  }
}
