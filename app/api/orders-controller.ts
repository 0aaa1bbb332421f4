import type { Context } from 'hono';
import { currentUser, HttpError, ValidationError, validate } from 'tollgate';
import { z } from 'zod';
import { OrderBook } from './orders.js';

// Messages are Laravel's ("The quantity field must be at least 1."), from `validate`.
const NewOrder = z.object({
  item: z.string().trim().min(1).max(200),
  quantity: z.number().int().min(1).max(1000).default(1),
});

/**
 * The reference API's orders, each answer in the reference API's envelope (`{ data }`; errors
 * `{ message, errors? }`, see docs/reference-service.md): `GET /api/orders` (scopes:check-status), `POST /api/orders`
 * (scopes:place-orders), `GET /api/orders/{order}/status` (scope:check-status,place-orders).
 */
export class OrdersController {
  static inject = [OrderBook] as const;

  constructor(private readonly orders: OrderBook) {}

  index(c: Context): Response {
    return c.json({ data: this.orders.forUser(currentUser(c)!.id) });
  }

  async store(c: Context): Promise<Response> {
    const input = validate(NewOrder, await readJson(c));
    return c.json({ data: this.orders.place(currentUser(c)!.id, input) }, 201);
  }

  status(order: string, c: Context): Response {
    const found = /^\d+$/.test(order) ? this.orders.find(currentUser(c)!.id, Number(order)) : undefined;
    if (!found) throw new HttpError(404, 'Order not found.', { body: { message: 'Order not found.' } });
    return c.json({ data: { id: found.id, status: found.status } });
  }
}

async function readJson(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new ValidationError({ body: ['The request body must be a JSON object.'] });
  }
}
