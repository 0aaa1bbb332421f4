import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The child runs plain node: under tsx's loader the tail of V8's debug print never reaches the pipe.
const source = readFileSync(new URL('../../src/kernel/tick-object-shape.ts', import.meta.url), 'utf8');
const compiled = join(mkdtempSync(join(tmpdir(), 'tick-shape-')), 'tick-object-shape.mjs');
writeFileSync(
  compiled,
  ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText,
);

/**
 * A fresh process that ticks as a server's start-up does (enough for V8 to record `nextTick`'s
 * caches), has a full GC while no tick is queued, ticks on, and gives the states of `nextTick`'s
 * caches for its tick object's four properties (from V8's own debug print of the function).
 */
async function cacheStatesAfterIdleGc(hold: boolean): Promise<string[]> {
  const script = `
    const { holdTickObjectShape } = await import(${JSON.stringify(compiled)});
    if (${hold}) holdTickObjectShape();
    for (let i = 0; i < 50; i++) await new Promise((resolve) => process.nextTick(resolve));
    await new Promise((resolve) => setTimeout(resolve, 10));
    gc();
    for (let i = 0; i < 1000; i++) await new Promise((resolve) => process.nextTick(resolve));
    %DebugPrint(process.nextTick);
  `;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--expose-gc', '--allow-natives-syntax', '--input-type=module', '-e', script],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  return [...stdout.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((match) => match[1]!);
}

describe('holdTickObjectShape', () => {
  it('keeps nextTick monomorphic through a full GC between ticks', async () => {
    expect(await cacheStatesAfterIdleGc(true)).toEqual([
      'MONOMORPHIC',
      'MONOMORPHIC',
      'MONOMORPHIC',
      'MONOMORPHIC',
    ]);
  });

  it('without it, such a GC turns nextTick megamorphic (what the hold prevents)', async () => {
    expect(await cacheStatesAfterIdleGc(false)).toContain('MEGAMORPHIC');
  });
});
