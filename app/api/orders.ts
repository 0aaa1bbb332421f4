import { type Clock, ClockKey } from 'tollgate';

export interface Order {
  id: number;
  user_id: number;
  item: string;
  quantity: number;
  status: 'placed' | 'shipped' | 'delivered';
  created_at: string;
}

/**
 * The sample orders behind the reference API: in memory, per instance, gone on restart. Enough to
 * show scopes at work (`check-status` reads, `place-orders` writes) without a table.
 */
export class OrderBook {
  static inject = [ClockKey] as const;
  readonly #orders = new Map<number, Order>();
  readonly #byUser = new Map<number, Order[]>();
  #nextId = 1;

  constructor(private readonly clock: Clock) {}

  forUser(userId: number): readonly Order[] {
    return this.#byUser.get(userId) ?? [];
  }

  /** The user's own order; anyone else's is "not found". */
  find(userId: number, id: number): Order | undefined {
    const order = this.#orders.get(id);
    return order?.user_id === userId ? order : undefined;
  }

  place(userId: number, input: { item: string; quantity: number }): Order {
    const order: Order = {
      id: this.#nextId++,
      user_id: userId,
      item: input.item,
      quantity: input.quantity,
      status: 'placed',
      created_at: this.clock.now().toISOString(),
    };
    this.#orders.set(order.id, order);
    this.#byUser.set(userId, [...this.forUser(userId), order]);
    return order;
  }
}
