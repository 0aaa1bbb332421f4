import type { Child, FC } from 'hono/jsx';
import { CsrfField } from './components.js';
import { withIntended } from './intended-link.js';
import { stylesheetUrl } from './stylesheet.js';

export interface LayoutProps {
  title: string;
  appName: string;
  /** The signed-in user, if any: the header shows the dashboard link and a logout button. */
  user?: { name: string } | undefined;
  /**
   * The session's CSRF token: for the logout form, and as `<meta name="csrf-token">` for scripts that
   * call JSON routes with `X-CSRF-TOKEN`. `renderPage()` passes it when a user is signed in.
   */
  csrfToken?: string | undefined;
  /** A one-off status message (flashed as `status` in the session). */
  flash?: string | undefined;
  /** A one-off error message (flashed as `error` in the session). */
  flashError?: string | undefined;
  /**
   * A checked same-site path the visitor is on the way to (an approval waiting behind the login):
   * the header's Log in and Register links carry it, like the login page's own links.
   */
  intended?: string | undefined;
  children?: Child;
}

/** The shared page frame: header with the app name and account links, main, footer. */
export const Layout: FC<LayoutProps> = ({
  title,
  appName,
  user,
  csrfToken,
  flash,
  flashError,
  intended,
  children,
}) => (
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{`${title} · ${appName}`}</title>
      {csrfToken ? <meta name="csrf-token" content={csrfToken} /> : null}
      <link rel="stylesheet" href={stylesheetUrl} />
      <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    </head>
    <body>
      <header class="site-header">
        <div class="container">
          <a class="brand" href="/">
            {appName}
          </a>
          <nav class="nav" aria-label="Account">
            {user ? (
              <>
                <a href="/dashboard">Dashboard</a>
                <span class="muted">{user.name}</span>
                <form method="post" action="/logout" class="inline">
                  <CsrfField token={csrfToken ?? ''} />
                  <button type="submit" class="btn btn-link">
                    Log out
                  </button>
                </form>
              </>
            ) : (
              <>
                <a href={withIntended('/login', intended)}>Log in</a>
                <a href={withIntended('/register', intended)}>Register</a>
              </>
            )}
          </nav>
        </div>
      </header>
      <main class="container">
        {flash ? (
          <div class="flash" role="status">
            {flash}
          </div>
        ) : null}
        {flashError ? (
          <div class="flash flash-error" role="alert">
            {flashError}
          </div>
        ) : null}
        {children}
      </main>
      <footer class="site-footer">
        <div class="container">{appName}</div>
      </footer>
    </body>
  </html>
);
