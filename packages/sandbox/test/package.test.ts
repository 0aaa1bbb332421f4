import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};

/** Every source file of the package with the modules it imports (static, dynamic and type-only). */
const sources = readdirSync(src, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => {
    const text = readFileSync(join(src, file), 'utf8');
    const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]!);
    return { file, specifiers };
  });

/** `stripe/routes/app.ts` → `stripe/routes`; a provider's own entry files → `stripe`. */
const folderOf = (file: string) => dirname(file).replace(/\\/g, '/');

describe('@tollgate/sandbox stands alone', () => {
  it('imports nothing outside itself but node: built-ins and its own declared dependencies', () => {
    const outside: string[] = [];
    for (const { file, specifiers } of sources) {
      for (const specifier of specifiers) {
        if (specifier.startsWith('.')) {
          const target = relative(src, resolve(src, dirname(file), specifier));
          if (target.startsWith('..')) outside.push(`${file} → ${specifier}`);
        } else if (!specifier.startsWith('node:')) {
          const name = specifier
            .split('/')
            .slice(0, specifier.startsWith('@') ? 2 : 1)
            .join('/');
          if (!(name in manifest.dependencies)) outside.push(`${file} → ${specifier}`);
        }
      }
    }
    expect(outside).toEqual([]);
  });

  it('gives both providers the same layout, and no folder imports one that imports it back', () => {
    const layers = ['routes', 'objects', 'domain', 'store'];
    for (const provider of ['stripe', 'braintree']) {
      const folders = readdirSync(join(src, provider), { withFileTypes: true }).filter((d) =>
        d.isDirectory(),
      );
      expect(folders.map((d) => d.name).sort(), provider).toEqual([...layers].sort());
    }
    const edges = new Set<string>();
    for (const { file, specifiers } of sources) {
      for (const specifier of specifiers.filter((s) => s.startsWith('.'))) {
        const from = folderOf(file);
        const to = folderOf(relative(src, resolve(src, dirname(file), specifier)));
        if (from !== to) edges.add(`${from} → ${to}`);
      }
    }
    const next = (folder: string) =>
      [...edges].filter((e) => e.startsWith(`${folder} → `)).map((e) => e.split(' → ')[1]!);
    const reaches = (from: string, target: string, seen = new Set<string>()): boolean =>
      next(from).some((to) => to === target || (!seen.has(to) && seen.add(to) && reaches(to, target, seen)));
    const folders = new Set(sources.map(({ file }) => folderOf(file)));
    expect([...folders].filter((folder) => reaches(folder, folder))).toEqual([]);
    // The providers share only `shared/`, and `shared/` knows neither.
    const crossing = [...edges].filter((edge) =>
      /^stripe.* → braintree|^braintree.* → stripe|^shared → (stripe|braintree)/.test(edge),
    );
    expect(crossing).toEqual([]);
  });
});
