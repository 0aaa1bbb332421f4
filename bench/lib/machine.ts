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
  readonly versions: Record<string, string>;
}

const measuredPackages = [
  'hono',
  '@hono/node-server',
  'jose',
  'oidc-provider',
  '@node-oauth/oauth2-server',
  '@node-rs/argon2',
  'better-sqlite3',
  'pg',
  'kysely',
  'autocannon',
];

/** Installed versions of the packages on the measured paths (from their own package.json). */
export function packageVersions(): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const name of measuredPackages) {
    try {
      const file = new URL(`../../node_modules/${name}/package.json`, import.meta.url);
      versions[name] = (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
    } catch {
      versions[name] = 'missing';
    }
  }
  return versions;
}

/** The CPU model as /proc/cpuinfo names it (os.cpus() can shorten it). */
function cpuModel(): string {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (match) return match[1]!.trim();
  } catch {}
  return cpus()[0]?.model ?? 'unknown';
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
    cpu: cpuModel(),
    cores: cpus().length,
    loadAverage: loadAverage(),
    versions: packageVersions(),
  };
}
