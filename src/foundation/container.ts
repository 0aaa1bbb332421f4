import { ConfigurationError } from './errors.js';

/** A named key for a value that is not a class (the config, the database, the logger). */
export class InjectionToken<T> {
  declare readonly __type: T;
  constructor(readonly description: string) {}
  toString(): string {
    return this.description;
  }
}

export type Constructor<T = unknown> = new (...args: any[]) => T;
export type Token<T = unknown> = Constructor<T> | InjectionToken<T> | (abstract new (...args: any[]) => T);

/** A class that names its constructor dependencies: `static inject = [ClientStore, Clock]`. */
export interface Injectable {
  inject?: readonly Token[];
}

type Factory<T> = (container: Container) => T;

function nameOf(token: Token): string {
  return token instanceof InjectionToken ? token.description : token.name || 'anonymous class';
}

/**
 * A small dependency-injection container. Dependencies are declared, never guessed: a class lists
 * them in `static inject`; there is no decorator metadata.
 */
export class Container {
  readonly #factories = new Map<Token, { factory: Factory<unknown>; shared: boolean }>();
  readonly #instances = new Map<Token, unknown>();
  readonly #parent: Container | undefined;

  constructor(parent?: Container) {
    this.#parent = parent;
  }

  /** A container for one request: it sees every binding of this one and can hold its own. */
  child(): Container {
    return new Container(this);
  }

  instance<T>(token: Token<T>, value: T): this {
    this.#instances.set(token, value);
    return this;
  }

  bind<T>(token: Token<T>, factory: Factory<T>): this {
    this.#factories.set(token, { factory, shared: false });
    return this;
  }

  singleton<T>(token: Token<T>, factory?: Factory<T>): this {
    const make = factory ?? ((c: Container) => c.construct(token as Constructor<T>));
    this.#factories.set(token, { factory: make, shared: true });
    return this;
  }

  has(token: Token): boolean {
    return this.#instances.has(token) || this.#factories.has(token) || (this.#parent?.has(token) ?? false);
  }

  make<T>(token: Token<T>): T {
    return this.#resolve(token, []);
  }

  /** Builds a class, resolving its `static inject` list. The class need not be bound. */
  construct<T>(cls: Constructor<T>): T {
    return this.#construct(cls, []);
  }

  /** Resolves a list of tokens; `requester` names who asked, for the error message. */
  resolveAll(tokens: readonly Token[], requester: string): unknown[] {
    return tokens.map((token) => {
      if (!this.has(token) && (token instanceof InjectionToken || !isConstructible(token))) {
        throw new ConfigurationError(`${requester} depends on ${nameOf(token)}, but nothing is bound to it.`);
      }
      return this.#resolve(token, [requester]);
    });
  }

  #resolve<T>(token: Token<T>, chain: string[]): T {
    if (this.#instances.has(token)) return this.#instances.get(token) as T;
    const binding = this.#factories.get(token);
    if (binding) {
      const value = binding.factory(this) as T;
      if (binding.shared) this.#instances.set(token, value);
      return value;
    }
    if (this.#parent?.has(token)) return this.#parent.#resolve(token, chain);
    if (token instanceof InjectionToken || !isConstructible(token)) {
      const who = chain.length ? `${chain.at(-1)} depends on ${nameOf(token)}, but` : `${nameOf(token)}:`;
      throw new ConfigurationError(`${who} nothing is bound to it.`);
    }
    return this.#construct(token as Constructor<T>, chain);
  }

  #construct<T>(cls: Constructor<T>, chain: string[]): T {
    if (chain.includes(cls.name)) {
      throw new ConfigurationError(`Circular dependency: ${[...chain, cls.name].join(' -> ')}`);
    }
    const deps = (cls as Injectable).inject ?? [];
    const args = deps.map((dep) => {
      if (!this.has(dep) && (dep instanceof InjectionToken || !isConstructible(dep))) {
        throw new ConfigurationError(`${cls.name} depends on ${nameOf(dep)}, but nothing is bound to it.`);
      }
      return this.#resolve(dep, [...chain, cls.name]);
    });
    return new cls(...args);
  }
}

function isConstructible(token: Token): boolean {
  return typeof token === 'function' && token.prototype !== undefined && !isAbstractMarker(token);
}

/** Interfaces-as-classes that are only tokens mark themselves with `static abstractToken = true`. */
function isAbstractMarker(token: Token): boolean {
  return (token as { abstractToken?: boolean }).abstractToken === true;
}
