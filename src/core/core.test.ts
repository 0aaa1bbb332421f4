import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { configFromEnv, defineConfig } from '../config/index.js';
import { loadAppKey } from '../kernel/app-key.js';
import { TestClock } from './clock.js';
import { Container, InjectionKey } from './container.js';
import { ConfigurationError } from './errors.js';
import { EventDispatcher } from './events.js';
import { createLogger } from './logger.js';

describe('configuration', () => {
  it('fills documented defaults and lets the environment override them', () => {
    const config = defineConfig(
      configFromEnv({
        PORT: '4100',
        DATABASE_URL: 'postgres://db/x',
        OAUTH_IMPLICIT_GRANT: 'true',
        BODY_LIMIT_WEBHOOKS: '2000000',
      }),
    );
    expect(config.http).toMatchObject({ host: '127.0.0.1', port: 4100 });
    expect(config.http.bodyLimits).toEqual({
      default: 100_000,
      oauth: 57_344,
      forms: 57_344,
      webhooks: 2_000_000,
    });
    expect(config.app.url).toBe('http://127.0.0.1:4100');
    expect(config.database.url).toBe('postgres://db/x');
    expect(config.oauth.implicitGrant).toBe(true);
    expect(config.oauth.accessTokenTtlSeconds).toBe(365 * 24 * 3600);
    expect(Object.isFrozen(config.oauth)).toBe(true);
  });

  it('defaults the database to storage/tollgate.sqlite', () => {
    expect(defineConfig({ storagePath: '/tmp/x' }).database.url).toBe('/tmp/x/tollgate.sqlite');
  });

  it('rejects a malformed number with the variable name', () => {
    expect(() => configFromEnv({ PORT: 'eighty' })).toThrow(/PORT must be a whole number/);
  });
});

describe('application key', () => {
  it('is generated once into storage with mode 0600 and then reused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-key-'));
    const first = loadAppKey('', dir);
    expect(first).toHaveLength(32);
    expect(statSync(join(dir, 'app.key')).mode & 0o777).toBe(0o600);
    expect(loadAppKey('', dir)).toEqual(first);
    expect(readFileSync(join(dir, 'app.key'), 'utf8')).toMatch(/^base64:/);
  });

  it('refuses a configured key of the wrong size', () => {
    expect(() => loadAppKey('base64:c2hvcnQ=', '/nonexistent')).toThrow(/32 bytes/);
  });
});

describe('container', () => {
  const Greeting = new InjectionKey<string>('Greeting');
  class Greeter {
    static inject = [Greeting];
    constructor(readonly greeting: string) {}
  }
  class Door {
    static inject = [Greeter];
    constructor(readonly greeter: Greeter) {}
  }

  it('constructs classes from their declared dependencies', () => {
    const c = new Container().instance(Greeting, 'hello');
    expect(c.make(Door).greeter.greeting).toBe('hello');
  });

  it('shares singletons and lets a child container add bindings', () => {
    const c = new Container().instance(Greeting, 'hi').singleton(Greeter);
    expect(c.make(Greeter)).toBe(c.make(Greeter));
    const child = c.child().instance(Greeting, 'other');
    expect(child.make(Greeting)).toBe('other');
    expect(c.make(Greeting)).toBe('hi');
  });

  it('names the class and the missing dependency', () => {
    expect(() => new Container().make(Door)).toThrow(ConfigurationError);
    expect(() => new Container().make(Door)).toThrow(
      'Greeter depends on Greeting, but nothing is bound to it.',
    );
  });
});

describe('events and clock', () => {
  class Happened {
    constructor(readonly n: number) {}
  }

  it('dispatches to listeners of the event class, in order, and awaits them', async () => {
    const events = new EventDispatcher();
    const seen: number[] = [];
    events.listen(Happened, async (e) => {
      await new Promise((r) => setTimeout(r, 1));
      seen.push(e.n);
    });
    const off = events.listen(Happened, (e) => {
      seen.push(e.n * 10);
    });
    await events.dispatch(new Happened(1));
    off();
    await events.dispatch(new Happened(2));
    expect(seen).toEqual([1, 10, 2]);
  });

  it('moves a TestClock only when told', () => {
    const clock = new TestClock(new Date('2026-01-01T00:00:00Z'));
    clock.advanceDays(2);
    expect(clock.now().toISOString()).toBe('2026-01-03T00:00:00.000Z');
  });
});

describe('logger', () => {
  it('never writes secrets', () => {
    let out = '';
    const sink = new Writable({
      write(chunk, _enc, done) {
        out += chunk;
        done();
      },
    });
    const logger = createLogger('info', sink as never);
    logger.info(
      {
        password: 'hunter2',
        client_secret: 's3cret',
        req: { headers: { authorization: 'Bearer abc', 'x-api-key': 'tg_live_k3y' } },
        created: { plainKey: 'tg_live_n3w' },
      },
      'x',
    );
    expect(out).not.toMatch(/hunter2|s3cret|Bearer abc|tg_live_k3y|tg_live_n3w/);
    expect(out).toContain('[redacted]');
  });
});
