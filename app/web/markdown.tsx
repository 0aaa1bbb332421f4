import type { Child } from 'hono/jsx';

/**
 * Just enough Markdown for the docs pages: headings, paragraphs, fenced code, flat lists, tables,
 * and inline code, bold and links. Text goes through hono/jsx, which escapes it; link targets are
 * kept only when they are http(s), in-page anchors, or other docs pages (`x.md` → `/docs/x`).
 */
export function renderMarkdown(text: string): Child[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const out: Child[] = [];
  let section = '';
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim() === '') {
      i++;
      continue;
    }
    if (line.startsWith('```')) {
      const code: string[] = [];
      for (i++; i < lines.length && !lines[i]!.startsWith('```'); i++) code.push(lines[i]!);
      i++;
      out.push(
        // Focusable, so a keyboard can scroll a block wider than the page (WCAG 2.1.1).
        <pre tabindex={0}>
          <code>{code.join('\n')}</code>
        </pre>,
      );
      continue;
    }
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    if (heading) {
      const level = heading[1]!.length;
      const body = inline(heading[2]!);
      const id = slug(heading[2]!);
      section = heading[2]!.replace(/[`*]/g, '');
      const headings = [<h1 id={id}>{body}</h1>, <h2 id={id}>{body}</h2>, <h3 id={id}>{body}</h3>];
      out.push(headings[level - 1] ?? <h4 id={id}>{body}</h4>);
      i++;
      continue;
    }
    if (line.startsWith('|')) {
      const rows: string[][] = [];
      for (; i < lines.length && lines[i]!.startsWith('|'); i++) {
        if (/^\|[\s:|-]+\|?$/.test(lines[i]!)) continue;
        rows.push(cells(lines[i]!));
      }
      const [head, ...body] = rows;
      out.push(
        // A labelled, focusable region: a keyboard can scroll a table wider than a phone (WCAG 2.1.1).
        <section class="table-wrap" tabindex={0} aria-label={section ? `Table: ${section}` : 'Table'}>
          <table class="table">
            <thead>
              <tr>
                {head?.map((c) => (
                  <th>{inline(c)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {body.map((row) => (
                <tr>
                  {row.map((c) => (
                    <td>{inline(c)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </section>,
      );
      continue;
    }
    const item = /^(\s*)(-|\*|\d+\.)\s+/;
    if (item.test(line)) {
      const ordered = /\d/.test(item.exec(line)![2]!);
      const items: string[] = [];
      for (; i < lines.length && lines[i]!.trim() !== ''; i++) {
        const m = item.exec(lines[i]!);
        if (m) items.push(lines[i]!.slice(m[0].length));
        else if (lines[i]!.startsWith('```')) break;
        else items[items.length - 1] += ` ${lines[i]!.trim()}`;
      }
      const children = items.map((t) => <li>{inline(t)}</li>);
      out.push(ordered ? <ol>{children}</ol> : <ul>{children}</ul>);
      continue;
    }
    const para: string[] = [];
    for (; i < lines.length && lines[i]!.trim() !== '' && !/^(```|#|\|)/.test(lines[i]!); i++)
      para.push(lines[i]!.trim());
    out.push(<p>{inline(para.join(' '))}</p>);
  }
  return out;
}

function cells(row: string): string[] {
  return row
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, '|'));
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[`*]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function href(target: string): string | undefined {
  if (/^https?:\/\//.test(target) || target.startsWith('#')) return target;
  const doc = /^(?:\.\/|docs\/)?([a-z0-9-]+)\.md(#.*)?$/.exec(target);
  return doc ? `/docs/${doc[1]}${doc[2] ?? ''}` : undefined;
}

/** Inline code, bold and links; everything else is text. */
function inline(text: string): Child[] {
  const out: Child[] = [];
  const pattern = /`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    if (m[1] !== undefined) out.push(<code>{m[1]}</code>);
    else if (m[2] !== undefined) out.push(<strong>{m[2]}</strong>);
    else {
      const target = href(m[4]!);
      out.push(target ? <a href={target}>{m[3]}</a> : m[3]);
    }
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
