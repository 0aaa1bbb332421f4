import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The dashboard's one script bundle: `app/assets/main.ts` and what it imports, built by esbuild. */
export interface ScriptBundle {
  code: string;
  /** Content hash: pages link `/assets/app.js?v=<version>`. */
  version: string;
}

const entry = fileURLToPath(new URL('../assets/main.ts', import.meta.url));
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
