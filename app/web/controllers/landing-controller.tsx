import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Context } from 'hono';
import { ConfigKey, HttpError, type TollgateConfig } from 'tollgate';
import { renderPage } from 'tollgate/views';
import { renderMarkdown } from '../markdown.js';
import { LandingPage } from '../pages/landing-page.js';

// The repository's docs/: three folders up from the sources, four from the compiled build/app/.
const DOCS = [new URL('../../../docs/', import.meta.url), new URL('../../../../docs/', import.meta.url)]
  .map((url) => fileURLToPath(url))
  .find((path) => existsSync(path))!;
const PAGE = /^[a-z0-9][a-z0-9-]*$/;

/** `GET /` and the documentation pages (`/docs`, `/docs/{page}`: the Markdown files of `docs/`). */
export class LandingController {
  static inject = [ConfigKey] as const;

  constructor(private readonly config: TollgateConfig) {}

  show(c: Context): Promise<Response> {
    return renderPage(
      c,
      { title: 'Home' },
      <LandingPage
        appName={this.config.app.name}
        baseUrl={this.config.app.url.replace(/\/+$/, '')}
        signedIn={Boolean(c.get('user'))}
      />,
    );
  }

  async docs(c: Context): Promise<Response> {
    const pages = (await readdir(DOCS).catch(() => [] as string[]))
      .filter((f) => f.endsWith('.md'))
      .map((f) => f.slice(0, -3))
      .sort();
    return renderPage(
      c,
      { title: 'Documentation' },
      <section class="card">
        <h1>Documentation</h1>
        <ul>
          {pages.map((page) => (
            <li>
              <a href={`/docs/${page}`}>{page.replace(/-/g, ' ')}</a>
            </li>
          ))}
        </ul>
      </section>,
    );
  }

  async doc(page: string, c: Context): Promise<Response> {
    const text = PAGE.test(page)
      ? await readFile(`${DOCS}${page}.md`, 'utf8').catch(() => undefined)
      : undefined;
    if (text === undefined) throw new HttpError(404, 'Not Found');
    const title = /^#\s+(.+)$/m.exec(text)?.[1] ?? page;
    return renderPage(
      c,
      { title },
      <>
        <p>
          <a href="/docs">← All documentation</a>
        </p>
        <article class="card doc">{renderMarkdown(text)}</article>
      </>,
    );
  }
}
