import type { Context } from 'hono';
import { Scopes } from '../scopes.js';

/** `GET /oauth/scopes`: every scope the application defines. */
export class ScopesController {
  static inject = [Scopes] as const;

  constructor(private readonly scopes: Scopes) {}

  index(c: Context): Response {
    return c.json(this.scopes.all());
  }
}
