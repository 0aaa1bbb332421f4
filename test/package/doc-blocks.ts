import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** A TypeScript or JavaScript code block of README.md or docs/*.md. */
export interface DocBlock {
  /** `README.md` or `docs/oauth.md`. */
  doc: string;
  /** The line of the opening fence. */
  line: number;
  lang: 'ts' | 'tsx' | 'js';
  code: string;
}

const FENCE = /^```(ts|tsx|js)((?: [\w-]+)*)\s*$/;

/**
 * Every `ts`, `tsx` and `js` block of the documentation, except those marked `fragment` in the
 * info string (```ts fragment): a shape or a part of a larger object that cannot stand alone.
 */
export function docBlocks(repo: string): DocBlock[] {
  const docs = ['README.md', ...readdirSync(join(repo, 'docs')).map((name) => `docs/${name}`)];
  const blocks: DocBlock[] = [];
  for (const doc of docs.filter((name) => name.endsWith('.md'))) {
    const lines = readFileSync(join(repo, doc), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const fence = FENCE.exec(lines[i]!);
      if (!fence) continue;
      const end = lines.indexOf('```', i + 1);
      if (!fence[2]!.split(' ').includes('fragment')) {
        blocks.push({
          doc,
          line: i + 1,
          lang: fence[1] as DocBlock['lang'],
          code: lines.slice(i + 1, end).join('\n'),
        });
      }
      i = end;
    }
  }
  return blocks;
}

/** The file a block is checked as, relative to the consumer project: `docs/oauth-484.ts`. */
export function blockFile(block: DocBlock): string {
  return `docs/${basename(block.doc, '.md')}-${block.line}.${block.lang}`;
}

/**
 * Writes each block as a module of its own (so two blocks may declare the same name), under
 * `docs/` of the consumer project. The names a block takes as given (`app`, `user`, `c`, …) come
 * from the project's `docs-context.d.ts`.
 */
export function writeDocBlocks(project: string, blocks: DocBlock[]): void {
  mkdirSync(join(project, 'docs'), { recursive: true });
  for (const block of blocks) writeFileSync(join(project, blockFile(block)), `${block.code}\nexport {};\n`);
}
