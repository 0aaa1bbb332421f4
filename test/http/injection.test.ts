import type { Context } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InjectionKey } from '../../src/core/container.js';
import { ConfigKey } from '../../src/core/keys.js';
import { RequestContext, Router } from '../../src/http/index.js';
import { ENGINES } from '../support/engines.js';
import { type ServedApp, serve } from './support.js';

class Greeter {
  greet(name: string) {
    return `hello ${name}`;
  }
}

const Prefix = new InjectionKey<string>('Prefix');
const Unbound = new InjectionKey<string>('UnboundThing');

class CommentController {
  static inject = [Greeter, ConfigKey];
  static actionInject = { show: [Prefix, RequestContext], index: [Router] };
  constructor(
    private readonly greeter: Greeter,
    private readonly config: { app: { name: string } },
  ) {}

  show(prefix: string, ctx: Context, post: string, comment: string, c: Context) {
    return {
      greeting: this.greeter.greet(prefix),
      app: this.config.app.name,
      post,
      comment,
      sameContext: ctx === c,
      path: ctx.req.path,
    };
  }

  index(router: Router) {
    return { url: router.url('comments.show', { post: 1, comment: 2 }) };
  }
}

class BrokenConstructor {
  static inject = [Unbound];
  constructor(readonly thing: string) {}
  show() {
    return 'never';
  }
}

class BrokenAction {
  static actionInject = { show: [Unbound] };
  show() {
    return 'never';
  }
}

// Issue item 3; spec rule 9: dependencies through the constructor and the action, then route parameters.
describe.each(ENGINES)('dependency injection (rule 9) (%s)', (engine) => {
  let s: ServedApp;
  beforeAll(async () => {
    s = await serve(engine, (app) => {
      app.container.instance(Prefix, 'world');
      const exposeError = async (c: Context, next: () => Promise<void>) => {
        await next();
        if (c.error) c.res.headers.set('x-error', c.error.message);
      };
      app.router.get('/posts/{post}/comments/{comment}', [CommentController, 'show']).name('comments.show');
      app.router.get('/comments', [CommentController, 'index']);
      app.router.get('/broken/constructor', [BrokenConstructor, 'show']).middleware(exposeError);
      app.router.get('/broken/action', [BrokenAction, 'show']).middleware(exposeError);
    });
  });
  afterAll(() => s.close());

  it('injects constructor and action dependencies, then route parameters in path order, then the context', async () => {
    expect(await s.json('/posts/4/comments/8')).toEqual({
      greeting: 'hello world',
      app: 'Tollgate',
      post: '4',
      comment: '8',
      sameContext: true,
      path: '/posts/4/comments/8',
    });
  });

  it('can inject the router itself', async () => {
    expect(await s.json('/comments')).toEqual({ url: '/posts/1/comments/2' });
  });

  it('a missing constructor binding is a clear error naming the controller and the dependency', async () => {
    const res = await s.fetch('/broken/constructor');
    expect(res.status).toBe(500);
    expect(res.headers.get('x-error')).toBe(
      'BrokenConstructor depends on UnboundThing, but nothing is bound to it.',
    );
    expect(await res.text()).not.toContain('UnboundThing');
  });

  it('a missing action binding names the controller, the action and the dependency', async () => {
    const res = await s.fetch('/broken/action');
    expect(res.status).toBe(500);
    expect(res.headers.get('x-error')).toBe(
      'BrokenAction@show depends on UnboundThing, but nothing is bound to it.',
    );
  });
});
