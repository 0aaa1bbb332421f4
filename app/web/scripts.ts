import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The dashboard's one script bundle: `app/assets/main.ts` and what it imports, built by esbuild. */
export interface ScriptBundle {
  code: string;
  /** Content hash: pages link `/assets/app.js?v=<version>`. */
  version: string;
}

// From source (tsx) the entry is main.ts; from a tsc build (dist/) it is the compiled main.js.
const entry = [new URL('../assets/main.ts', import.meta.url), new URL('../assets/main.js', import.meta.url)]
  .map((url) => fileURLToPath(url))
  .find((path) => existsSync(path))!;
let bundle: Promise<ScriptBundle> | undefined;

/**
 * Built once per process on first use (tens of milliseconds), kept in memory. Unminified: the
 * dashboard's code stays readable in the browser's developer tools.
 */
export function scriptBundle(): Promise<ScriptBundle> {
  bundle ??= build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    target: 'es2020',
    platform: 'browser',
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  }).then((result) => {
    const code = result.outputFiles[0]!.text;
    return { code, version: createHash('sha256').update(code).digest('hex').slice(0, 12) };
  });
  bundle.catch(() => {
    bundle = undefined;
  });
  return bundle;
}

/** The URL pages put in `<script type="module" src>`. */
export async function scriptUrl(): Promise<string> {
  return `/assets/app.js?v=${(await scriptBundle()).version}`;
}
