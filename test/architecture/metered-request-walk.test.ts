import { relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiKeyAuthenticator } from '../../src/oauth/guard/api-key-authenticator.js';
import { UserResolver } from '../../src/oauth/guard/user-resolver.js';
import { Metering } from '../../src/plans/metering/metering.js';
import { UsageMeter } from '../../src/plans/metering/usage-meter.js';
import { LeasedLimit } from '../../src/rate-limits/leased-limit.js';
import { call, type PlansApp, startPlansApp, stopPlansApp, userWithCredentials } from '../plans/support.js';
import { ANY_ENGINE } from '../support/engines.js';

const root = resolve(import.meta.dirname, '../..');

/**
 * Where the work of a request ends up: the API key's check, its user, the plan's limits, the
 * metering and the meter. Each probe records the call stack that reached it (V8's async stack
 * traces included) and calls the real method; the probed file ends the recorded path.
 */
const PROBES = [
  [ApiKeyAuthenticator.prototype, 'authenticate', 'src/oauth/guard/api-key-authenticator.ts'],
  [UserResolver.prototype, 'resolve', 'src/oauth/guard/user-resolver.ts'],
  [LeasedLimit.prototype, 'consume', 'src/rate-limits/leased-limit.ts'],
  [Metering.prototype, 'count', 'src/plans/metering/metering.ts'],
  [UsageMeter.prototype, 'record', 'src/plans/metering/usage-meter.ts'],
  [UsageMeter.prototype, 'add', 'src/plans/metering/usage-meter.ts'],
] as const;

/** A file of ours (`src/…` or `app/…`) from a stack frame; undefined for libraries, Node and tests. */
function fileOf(frame: string): string | undefined {
  const path = /\(?(?:file:\/\/)?(\/[^():]+):\d+:\d+\)?$/.exec(frame.trim())?.[1];
  if (path === undefined || path.includes('/node_modules/')) return undefined;
  const file = relative(root, path);
  return /^(src|app)\//.test(file) ? file : undefined;
}

/** Its top-level folder of src/, or `app`. */
const folderOf = (file: string) => (file.startsWith('app/') ? 'app' : file.split('/')[1]!);

/** The files a stack went through, from the outermost caller to `leaf`, each once in a row. */
function callPath(stack: string, leaf: string): string[] {
  const files = stack
    .split('\n')
    .slice(1)
    .map(fileOf)
    .filter((file) => file !== undefined)
    .reverse();
  return [...files, leaf].filter((file, i, all) => file !== all[i - 1]);
}

interface CallNode {
  file: string;
  children: CallNode[];
}

/**
 * The call paths merged into one call tree of files. A path that starts inside a callback (a
 * promise continuation: V8 keeps no frames above it) hangs under the latest node of the file that
 * made the callback, or else under the request's entry. A call from one top-level folder into another is a change of folder.
 */
function callTree(paths: string[][]): { files: Set<string>; changes: string[] } {
  const root: CallNode = { file: '', children: [] };
  const byFile = new Map<string, CallNode>();
  for (const path of paths) {
    // Else it hangs under the request's entry, the first path's outermost file.
    let node = byFile.get(path[0]!) ?? root.children[0] ?? root;
    for (const [i, file] of path.entries()) {
      if (i === 0 && byFile.has(file)) continue;
      let child = node.children.find((n) => n.file === file);
      if (child === undefined) {
        child = { file, children: [] };
        node.children.push(child);
      }
      byFile.set(file, child);
      node = child;
    }
  }
  const changes: string[] = [];
  const visit = (node: CallNode) => {
    for (const child of node.children) {
      if (node.file && folderOf(node.file) !== folderOf(child.file))
        changes.push(`${node.file} → ${child.file}`);
      visit(child);
    }
  };
  visit(root);
  return { files: new Set(byFile.keys()), changes };
}

describe('architecture: the path of a metered API-key request', () => {
  let t: PlansApp;
  const stacks: [stack: string, leaf: string][] = [];
  const stackLimit = Error.stackTraceLimit;

  beforeAll(async () => {
    // The walk is the same code path on either engine.
    t = await startPlansApp(ANY_ENGINE);
    for (const [proto, method, file] of PROBES) {
      const target = proto as unknown as Record<string, (...args: unknown[]) => unknown>;
      const real = target[method]!;
      vi.spyOn(target, method).mockImplementation(function (this: unknown, ...args: unknown[]) {
        stacks.push([new Error().stack ?? '', file]);
        return real.apply(this, args);
      });
    }
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    Error.stackTraceLimit = stackLimit;
    await stopPlansApp(t);
  });

  /** The walk of one `metered:emails,3` call with `apiKey`, through `auth:api` and the plan. */
  async function walkOneCall(apiKey: string) {
    stacks.length = 0;
    Error.stackTraceLimit = 200;
    const res = await call(t, '/api/plan-probe/emails', apiKey, 'POST');
    Error.stackTraceLimit = stackLimit;
    expect(res.status).toBe(200);
    return callTree(stacks.map(([stack, leaf]) => callPath(stack, leaf)));
  }

  it('changes top-level folder at most 6 times once its key and user are cached (the usual call)', async () => {
    const { apiKey } = await userWithCredentials(t);
    await walkOneCall(apiKey);
    const seen = await walkOneCall(apiKey);
    const folders = new Set([...seen.files].map(folderOf));
    // The probes saw the request cross the guard, the plan, its limits and the meter.
    expect([...folders]).toEqual(expect.arrayContaining(['http', 'auth', 'oauth', 'plans', 'rate-limits']));
    const path = `${seen.files.size} files; changes: ${seen.changes.join(', ')}`;
    expect(seen.changes.length, path).toBeLessThanOrEqual(6);
  });
});
