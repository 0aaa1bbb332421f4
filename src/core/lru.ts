interface Slot<V> {
  value: V;
  /** The insertion counter when the entry last moved to the young end. */
  stamp: number;
}

/**
 * A bounded map that forgets its least recently used entry when full. A `Map` keeps insertion
 * order, so the oldest entry is its first key. Moving an entry to the young end on every hit
 * (delete + set) costs more than the rest of a cached token check, so a hit moves it only once it
 * has drifted into the older half: hot entries stay far from eviction at almost no cost.
 */
export class LruCache<K, V> {
  readonly #map = new Map<K, Slot<V>>();
  readonly #halfLife: number;
  readonly #evictBatch: number;
  #counter = 0;

  constructor(readonly capacity: number) {
    if (!(capacity >= 1))
      throw new RangeError(`An LRU cache needs a capacity of at least 1 (got ${capacity}).`);
    this.#halfLife = Math.max(1, Math.floor(capacity / 2));
    this.#evictBatch = Math.max(1, Math.floor(capacity / 64));
  }

  get size(): number {
    return this.#map.size;
  }

  /** The value, marked as used. */
  get(key: K): V | undefined {
    const slot = this.#map.get(key);
    if (slot === undefined) return undefined;
    if (this.#counter - slot.stamp >= this.#halfLife) {
      this.#map.delete(key);
      slot.stamp = ++this.#counter;
      this.#map.set(key, slot);
    }
    return slot.value;
  }

  /** The value without changing its rank. */
  peek(key: K): V | undefined {
    return this.#map.get(key)?.value;
  }

  has(key: K): boolean {
    return this.#map.has(key);
  }

  set(key: K, value: V): this {
    if (this.#map.has(key)) this.#map.delete(key);
    else if (this.#map.size >= this.capacity) this.#evict();
    this.#map.set(key, { value, stamp: ++this.#counter });
    return this;
  }

  /**
   * Drops the oldest 1/64th at once: a `Map` keeps deleted slots until it rehashes, and finding the
   * first live key walks past them, so evicting one entry per insertion costs microseconds each.
   */
  #evict(): void {
    let n = 0;
    for (const key of this.#map.keys()) {
      this.#map.delete(key);
      if (++n >= this.#evictBatch) break;
    }
  }

  delete(key: K): boolean {
    return this.#map.delete(key);
  }

  clear(): void {
    this.#map.clear();
  }

  *entries(): IterableIterator<[K, V]> {
    for (const [key, slot] of this.#map) yield [key, slot.value];
  }
}
