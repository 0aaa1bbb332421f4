import type { Context } from 'hono';
import { currentUser } from 'tollgate';

/** `GET /api/user`: the user the token belongs to (Laravel's `$request->user()`). */
export class UserController {
  show(c: Context): Response {
    return c.json(currentUser(c)!);
  }
}
