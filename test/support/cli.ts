import { vi } from 'vitest';
import { run } from '../../src/cli/main.js';

/** The CLI in process, on the reference service, with this environment; stdout and stderr captured. */
export async function tollgate(args: string[], env: Record<string, string>) {
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    err.push(String(chunk));
    return true;
  });
  try {
    const code = await run(args);
    return { code, stdout: out.join('\n'), stderr: err.join('') };
  } finally {
    log.mockRestore();
    stderr.mockRestore();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
