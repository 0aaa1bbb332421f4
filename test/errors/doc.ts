import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const root = join(import.meta.dirname, '../..');
export const errorsDoc = readFileSync(join(root, 'docs/errors.md'), 'utf8');

/**
 * The rows of the table between `<!-- catalogue:name -->` and `<!-- /catalogue:name -->` in
 * docs/errors.md, as trimmed cells with a surrounding code span removed (header rows skipped).
 */
export function catalogue(name: string): string[][] {
  const open = `<!-- catalogue:${name} -->`;
  const start = errorsDoc.indexOf(open);
  const end = errorsDoc.indexOf(`<!-- /catalogue:${name} -->`);
  if (start < 0 || end < start) throw new Error(`docs/errors.md has no "${name}" catalogue`);
  return errorsDoc
    .slice(start + open.length, end)
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim().replace(/^`(.*)`$/, '$1')),
    );
}

/** Names in a constructor cell: "`invalidGrant()`" → ["invalidGrant"]; "—" → []. */
export function constructorNames(cell: string): string[] {
  return [...cell.matchAll(/(\w+)\(\)/g)].map((m) => m[1]!).sort();
}

/** Every `export class X extends …Error` under src/ (the sandboxes are out of scope), with its file. */
export function errorClassesInSource(): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (relative(root, path) !== join('src', 'sandbox')) walk(path);
      } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        const text = readFileSync(path, 'utf8');
        for (const m of text.matchAll(/export class (\w+) extends (\w*Error)\b/g)) {
          found.set(m[1]!, relative(root, path));
        }
      }
    }
  };
  walk(join(root, 'src'));
  return found;
}

/**
 * The members of a string-literal union type as the source declares it. Used for unions that
 * exist only as types (no run-time list to import), so a new member without a doc row is caught.
 */
export function unionMembers(file: string, typeName: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const m = new RegExp(`export type ${typeName} =([^;]+);`).exec(text);
  if (!m) throw new Error(`${file} declares no union ${typeName}`);
  return [...m[1]!.matchAll(/'([^']+)'/g)].map((x) => x[1]!).sort();
}
