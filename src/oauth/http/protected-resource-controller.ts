import type { Context } from 'hono';
import { ProtectedResources } from '../protected-resources.js';
import { notFound } from './clients-controller.js';

/**
 * `GET /.well-known/oauth-protected-resource[/{path}]` (RFC 9728 §3): the metadata of the
 * protected resource whose identifier has that path, for clients that met a 401 from it.
 */
export class ProtectedResourceController {
  static inject = [ProtectedResources] as const;

  constructor(private readonly resources: ProtectedResources) {}

  show(c: Context): Response {
    return this.#render(c);
  }

  /** The same for a resource identifier with a path (`https://api.example/mcp`). */
  showPath(_path: string, c: Context): Response {
    return this.#render(c);
  }

  #render(c: Context): Response {
    const resource = this.resources.at(c.req.path);
    if (!resource) throw notFound();
    return c.json(resource.metadata, 200, { 'Cache-Control': 'public, max-age=3600' });
  }
}
