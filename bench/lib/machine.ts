import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';

export interface MachineInfo {
  readonly date: string;
  readonly commit: string;
  readonly node: string;
  readonly cpu: string;
  readonly cores: number;
  readonly loadAverage: string;
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

/** The one-minute, five-minute and fifteen-minute load averages, as the kernel reports them. */
export function loadAverage(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'unknown';
  }
}

export function machineInfo(): MachineInfo {
  const dirty = git(['status', '--porcelain', '--', 'src', 'app']) ? ' (+ uncommitted src/app changes)' : '';
  return {
    date: new Date().toISOString(),
    commit: `${git(['rev-parse', '--short', 'HEAD'])}${dirty}`,
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    loadAverage: loadAverage(),
  };
}
