import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface TollgateProcess {
  child: ChildProcess;
  /** What it printed on stdout so far. */
  stdout(): string;
  /** Resolves with the first match of `pattern` in its stdout; rejects if it exits first. */
  printed(pattern: RegExp): Promise<RegExpExecArray>;
  /** Its exit: the code, or the signal that ended it, and everything it printed. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  /** SIGKILL, as an orchestrator or the kernel's OOM killer ends it: nothing runs after. */
  kill(): Promise<void>;
}

/** `tollgate <args>` (`src/cli/main.ts` under tsx) in a process of its own, on `env` over the test's environment. */
export function startTollgate(args: string[], env: Record<string, string>): TollgateProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
    stdout,
    stderr,
  }));
  const printed = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const look = () => {
        const match = pattern.exec(stdout);
        if (!match) return;
        child.stdout!.off('data', look);
        resolve(match);
      };
      child.stdout!.on('data', look);
      look();
      void exited.then(({ code, signal }) =>
        reject(
          new Error(`tollgate ${args[0]} ended (${code ?? signal}) before printing ${pattern}\n${stderr}`),
        ),
      );
    });
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await exited;
  };
  return { child, stdout: () => stdout, printed, exited, kill };
}
