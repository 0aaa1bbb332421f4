import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.js';

const html = (text: string) =>
  renderMarkdown(text)
    .map((node) => String(node))
    .join('');

describe('renderMarkdown (docs pages)', () => {
  it('escapes text: HTML in a doc is shown, never run', () => {
    expect(html('Use <script>alert(1)</script> here')).toBe(
      '<p>Use &lt;script&gt;alert(1)&lt;/script&gt; here</p>',
    );
  });

  it('keeps only safe link targets; other docs pages become /docs/{page}', () => {
    expect(html('[guide](oauth.md#scopes)')).toContain('<a href="/docs/oauth#scopes">guide</a>');
    expect(html('[site](https://example.com)')).toContain('<a href="https://example.com">site</a>');
    const hostile = html('[click](javascript:alert(1))');
    expect(hostile).not.toContain('href');
    expect(hostile).toContain('click');
  });

  it('renders headings, fenced code, lists and tables', () => {
    const out = html(
      '# Title\n\nSome **bold** and `code`.\n\n```ts\nconst a = 1 < 2;\n```\n\n- one\n  more\n- two\n\n| a | b |\n|---|---|\n| 1 | `x` |\n',
    );
    expect(out).toContain('<h1 id="title">Title</h1>');
    expect(out).toContain('<strong>bold</strong> and <code>code</code>');
    expect(out).toContain('<pre tabindex="0"><code>const a = 1 &lt; 2;</code></pre>');
    expect(out).toContain('<ul><li>one more</li><li>two</li></ul>');
    expect(out).toContain('<section class="table-wrap" tabindex="0" aria-label="Table: Title">');
    expect(out).toContain('<th>a</th><th>b</th>');
    expect(out).toContain('<td>1</td><td><code>x</code></td>');
  });
});
