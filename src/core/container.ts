import { ConfigurationError } from './errors.js';

/** A named key for a value that is not a class (the config, the database, the logger). */
export class InjectionKey<T> {
  declare readonly __type: T;
  constructor(readonly description: string) {}
  toString(): string {
    return this.description;
  }
}

export type Constructor<T = unknown> = new (...args: any[]) => T;
export type Binding<T = unknown> = Constructor<T> | InjectionKey<T> | (abstract new (...args: any[]) => T);

/** A class that names its constructor dependencies: `static inject = [ClientStore, Clock]`. */
export interface Injectable {
  inject?: readonly Binding[];
}

type Factory<T> = (container: Container) => T;

function nameOf(key: Binding): string {
  return key instanceof InjectionKey ? key.description : key.name || 'anonymous class';
}

/**
 * A small dependency-injection container. Dependencies are declared, never guessed: a class lists
 * them in `static inject`; there is no decorator metadata.
 */
export class Container {
  readonly #factories = new Map<Binding, { factory: Factory<unknown>; shared: boolean }>();
  readonly #instances = new Map<Binding, unknown>();
  readonly #parent: Container | undefined;

  constructor(parent?: Container) {
    this.#parent = parent;
  }

  /** A container for one request: it sees every binding of this one and can hold its own. */
  child(): Container {
    return new Container(this);
  }

  instance<T>(key: Binding<T>, value: T): this {
    this.#instances.set(key, value);
    return this;
  }

  bind<T>(key: Binding<T>, factory: Factory<T>): this {
    this.#factories.set(key, { factory, shared: false });
    return this;
  }

  singleton<T>(key: Binding<T>, factory?: Factory<T>): this {
    const make = factory ?? ((c: Container) => c.construct(key as Constructor<T>));
    this.#factories.set(key, { factory: make, shared: true });
    return this;
  }

  has(key: Binding): boolean {
    return this.#instances.has(key) || this.#factories.has(key) || (this.#parent?.has(key) ?? false);
  }

  make<T>(key: Binding<T>): T {
    return this.#resolve(key, []);
  }

  /** Builds a class, resolving its `static inject` list. The class need not be bound. */
  construct<T>(cls: Constructor<T>): T {
    return this.#construct(cls, []);
  }

  /** Resolves a list of tokens; `requester` names who asked, for the error message. */
  resolveAll(tokens: readonly Binding[], requester: string): unknown[] {
    return tokens.map((key) => {
      if (!this.has(key) && (key instanceof InjectionKey || !isConstructible(key))) {
        throw new ConfigurationError(`${requester} depends on ${nameOf(key)}, but nothing is bound to it.`);
      }
      return this.#resolve(key, [requester]);
    });
  }

  #resolve<T>(key: Binding<T>, chain: string[]): T {
    if (this.#instances.has(key)) return this.#instances.get(key) as T;
    const binding = this.#factories.get(key);
    if (binding) {
      const value = binding.factory(this) as T;
      if (binding.shared) this.#instances.set(key, value);
      return value;
    }
    if (this.#parent?.has(key)) return this.#parent.#resolve(key, chain);
    if (key instanceof InjectionKey || !isConstructible(key)) {
      const who = chain.length ? `${chain.at(-1)} depends on ${nameOf(key)}, but` : `${nameOf(key)}:`;
      throw new ConfigurationError(`${who} nothing is bound to it.`);
    }
    return this.#construct(key as Constructor<T>, chain);
  }

  #construct<T>(cls: Constructor<T>, chain: string[]): T {
    if (chain.includes(cls.name)) {
      throw new ConfigurationError(`Circular dependency: ${[...chain, cls.name].join(' -> ')}`);
    }
    const deps = (cls as Injectable).inject ?? [];
    const args = deps.map((dep) => {
      if (!this.has(dep) && (dep instanceof InjectionKey || !isConstructible(dep))) {
        throw new ConfigurationError(`${cls.name} depends on ${nameOf(dep)}, but nothing is bound to it.`);
      }
      return this.#resolve(dep, [...chain, cls.name]);
    });
    return new cls(...args);
  }
}

function isConstructible(key: Binding): boolean {
  return typeof key === 'function' && key.prototype !== undefined && !isAbstractMarker(key);
}

/** Interfaces-as-classes that are only tokens mark themselves with `static abstractToken = true`. */
function isAbstractMarker(key: Binding): boolean {
  return (key as { abstractToken?: boolean }).abstractToken === true;
}
