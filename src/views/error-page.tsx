import type { ErrorPage } from '../http/error-handler.js';
import { Layout } from './layout.js';

/**
 * The error and 404 pages in the site's layout: its header (with the signed-in user when the
 * request got that far; a 404 reads no session), its navigation and footer, then the status, the
 * message and a way back.
 */
export function layoutErrorPage(appName: string): ErrorPage {
  return (status, message, c) => {
    const user = c?.get('user');
    const page = (
      <Layout
        title={`${status} · ${message}`}
        appName={appName}
        user={user}
        csrfToken={user ? c?.get('session')?.csrfToken : undefined}
      >
        <section class="error-page">
          <h1>{status}</h1>
          <p>{message}</p>
          <p>
            <a href="/">Back to the start</a>
          </p>
        </section>
      </Layout>
    );
    return `<!DOCTYPE html>${page.toString()}`;
  };
}
