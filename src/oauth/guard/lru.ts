/**
 * A bounded map that forgets its least recently used entry when full. A `Map` keeps insertion
 * order, so "touch" is delete + set and the oldest entry is the first key: O(1) either way.
 */
export class LruCache<K, V> {
  readonly #map = new Map<K, V>();

  constructor(readonly capacity: number) {
    if (!(capacity >= 1))
      throw new RangeError(`An LRU cache needs a capacity of at least 1 (got ${capacity}).`);
  }

  get size(): number {
    return this.#map.size;
  }

  /** The value, marked as just used. */
  get(key: K): V | undefined {
    const value = this.#map.get(key);
    if (value !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, value);
    }
    return value;
  }

  /** The value without changing its rank. */
  peek(key: K): V | undefined {
    return this.#map.get(key);
  }

  has(key: K): boolean {
    return this.#map.has(key);
  }

  set(key: K, value: V): this {
    if (this.#map.has(key)) this.#map.delete(key);
    else if (this.#map.size >= this.capacity) this.#map.delete(this.#map.keys().next().value as K);
    this.#map.set(key, value);
    return this;
  }

  delete(key: K): boolean {
    return this.#map.delete(key);
  }

  clear(): void {
    this.#map.clear();
  }

  entries(): IterableIterator<[K, V]> {
    return this.#map.entries();
  }
}
