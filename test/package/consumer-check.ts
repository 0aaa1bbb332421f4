import { execFile } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { blockFile, type DocBlock, docBlocks, writeDocBlocks } from './doc-blocks.js';
import { repo } from './packed-project.js';

/** Where a JavaScript block's imports from the packages are run: `docs/readme-95.imports.mjs`. */
export const importsFile = (block: DocBlock) => blockFile(block).replace(/\.js$/, '.imports.mjs');

const PACKAGE_IMPORT = /^import\s[^;]*?\sfrom\s+'((?:tollgate|@tollgate\/sandbox)(?:\/[\w-]+)?)';/gm;

/**
 * Fills a packed project with the consumer fixture (`test/package/consumer`: a strict NodeNext
 * tsconfig without `skipLibCheck`, the docs' context), a module importing every entry point of
 * both packages (from their package.json `exports`), and the documentation's
 * blocks: TypeScript blocks as files of their own, JavaScript blocks as a module of only their
 * imports from the packages (a wrong named import is a SyntaxError when it runs).
 */
export function writeConsumer(project: string): DocBlock[] {
  writeFileSync(join(project, 'entry-points.ts'), entryPointsModule());
  const blocks = docBlocks(repo);
  writeDocBlocks(
    project,
    blocks.filter((block) => block.lang !== 'js'),
  );
  cpSync(join(repo, 'test/package/consumer'), project, { recursive: true });
  for (const block of blocks.filter((b) => b.lang === 'js')) {
    const imports = [...block.code.matchAll(PACKAGE_IMPORT)].map((match) => match[0]);
    writeFileSync(join(project, importsFile(block)), `${imports.join('\n')}\n`);
  }
  return blocks;
}

/** `tsc -p` on the project with the repository's TypeScript: each file's errors, by file. */
export async function typecheck(project: string): Promise<Map<string, string[]>> {
  const tsc = join(repo, 'node_modules/typescript/bin/tsc');
  const output = await promisify(execFile)(process.execPath, [tsc, '-p', project, '--pretty', 'false'], {
    cwd: project,
    maxBuffer: 16 * 1024 * 1024,
  }).then(
    (done) => done.stdout,
    (failed: { stdout?: string }) => failed.stdout ?? String(failed),
  );
  const errors = new Map<string, string[]>();
  let last: string[] | undefined;
  for (const line of output.split('\n').filter(Boolean)) {
    const file = /^(\S[^(]*)\(\d+,\d+\): error/.exec(line)?.[1];
    if (file) {
      last = errors.get(file) ?? [];
      errors.set(file, last);
      last.push(line);
    } else if (last) last[last.length - 1] += `\n${line}`;
    else errors.set('(tsc)', [...(errors.get('(tsc)') ?? []), line]);
  }
  return errors;
}

/** `import * as entry0 from 'tollgate';` … for every entry point `exports` lists, in both packages. */
function entryPointsModule(): string {
  const specifiers = ['.', 'packages/sandbox'].flatMap((dir) => {
    const manifest = JSON.parse(readFileSync(join(repo, dir, 'package.json'), 'utf8')) as {
      name: string;
      exports: Record<string, unknown>;
    };
    return Object.keys(manifest.exports)
      .filter((key) => key !== './package.json')
      .map((key) => manifest.name + key.slice(1));
  });
  const imports = specifiers.map((specifier, i) => `import * as entry${i} from '${specifier}';`);
  return `${imports.join('\n')}\nexport const entryPoints = [${specifiers.map((_, i) => `entry${i}`).join(', ')}];\n`;
}
