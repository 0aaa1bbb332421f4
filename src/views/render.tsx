import type { Context, MiddlewareHandler } from 'hono';
import type { Child } from 'hono/jsx';
import { Layout } from './layout.js';

declare module 'hono' {
  interface ContextVariableMap {
    /** The application's name for page headers, set by `shareAppName()` (in the `web` group). */
    appName: string | undefined;
  }
}

/**
 * Puts the application's name where `renderPage()` finds it. It hands back `next()`'s promise
 * rather than awaiting it: every `web` request passes here, a redirect that renders nothing too,
 * and an async frame of its own would cost a promise and a turn of the microtask queue each time.
 */
export function shareAppName(name: string): MiddlewareHandler {
  return function shareAppName(c, next) {
    c.set('appName', name);
    return next();
  };
}

export interface PageOptions {
  title: string;
  status?: number;
  /** A checked same-site path for the header's Log in and Register links to carry (see `LayoutProps`). */
  intended?: string | undefined;
}

/**
 * Renders `content` inside the shared layout as a full HTML document. The header's account links,
 * the logout form's CSRF token and the flashed `status` and `error` messages come from the request's
 * session.
 */
export async function renderPage(c: Context, options: PageOptions, content: Child): Promise<Response> {
  const session = c.get('session');
  const user = c.get('user');
  const flash = session?.get<string>('status');
  const flashError = session?.get<string>('error');
  const page = (
    <Layout
      title={options.title}
      appName={c.get('appName') ?? 'Tollgate'}
      user={user}
      csrfToken={user ? session?.csrfToken : undefined}
      flash={typeof flash === 'string' ? flash : undefined}
      flashError={typeof flashError === 'string' ? flashError : undefined}
      intended={options.intended}
    >
      {content}
    </Layout>
  );
  return c.html(`<!DOCTYPE html>${await page.toString()}`, (options.status ?? 200) as 200);
}
