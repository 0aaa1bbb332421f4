/** Any class can be an event; listeners are keyed by the class. */
export type EventClass<E> = abstract new (...args: any[]) => E;
export type Listener<E> = (event: E) => void | Promise<void>;

/**
 * A typed event dispatcher. Listeners run in registration order and are awaited, so a listener
 * that prunes tokens has finished before the response that issued the token is sent.
 */
export class EventDispatcher {
  readonly #listeners = new Map<EventClass<unknown>, Listener<unknown>[]>();

  listen<E>(event: EventClass<E>, listener: Listener<E>): () => void {
    const list = this.#listeners.get(event) ?? [];
    list.push(listener as Listener<unknown>);
    this.#listeners.set(event, list);
    return () => {
      const i = list.indexOf(listener as Listener<unknown>);
      if (i >= 0) list.splice(i, 1);
    };
  }

  hasListeners(event: EventClass<unknown>): boolean {
    return (this.#listeners.get(event)?.length ?? 0) > 0;
  }

  async dispatch<E extends object>(event: E): Promise<void> {
    const list = this.#listeners.get(event.constructor as EventClass<E>);
    if (!list) return;
    for (const listener of [...list]) await listener(event);
  }
}
