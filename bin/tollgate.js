#!/usr/bin/env node
// The `tollgate` command. Installed from npm it runs the compiled CLI with plain node; inside this
// repository (where the TypeScript sources sit beside it) it runs them through tsx, so it is never stale.
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/main.ts', import.meta.url);
const inRepository = existsSync(source);
if (inRepository || /\.(c|m)?tsx?$/.test(process.env.TOLLGATE_APP ?? '')) {
  try {
    const { register } = await import('tsx/esm/api');
    register();
  } catch {
    console.error('Error: TOLLGATE_APP names a TypeScript module; install tsx (npm i -D tsx) to load it.');
    process.exit(1);
  }
}
const { run } = await import(inRepository ? source.href : '../dist/cli/main.js');
process.exitCode = await run(process.argv.slice(2));
