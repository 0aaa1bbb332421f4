import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const repo = resolve(import.meta.dirname, '../..');

export interface PackedProject {
  /** The consumer project's folder. */
  dir: string;
  /** The two tarballs, `tollgate-0.1.0.tgz` and `tollgate-sandbox-0.1.0.tgz`. */
  tarballs: string[];
}

export const npm = (args: string[], cwd: string) =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8' });

/**
 * The packages as a user gets them: `npm pack` of `tollgate` and of `@tollgate/sandbox`, both
 * tarballs installed in an empty folder (`npm install tollgate @tollgate/sandbox`) with the
 * `@types/node` a TypeScript consumer adds. Slow (a build and an install): one per test run. The
 * build (`prepack`) is skipped when TOLLGATE_DIST_BUILT is set: `.ci/run` built this same checkout just before.
 */
export function installPackedProject(packageJson: Record<string, unknown>): PackedProject {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-consumer-'));
  const folder = join(dir, 'tarballs');
  mkdirSync(folder);
  // `npm pack` builds first (prepack), as for a user packing a fresh checkout; `.ci/run` has just
  // built this same checkout (TOLLGATE_DIST_BUILT), so there the build is not run again.
  const skipBuild = process.env.TOLLGATE_DIST_BUILT ? ['--ignore-scripts'] : [];
  npm(['pack', ...skipBuild, '--pack-destination', folder], repo);
  npm(['pack', ...skipBuild, '--workspace', '@tollgate/sandbox', '--pack-destination', folder], repo);
  const tarballs = readdirSync(folder).map((file) => join(folder, file));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module', ...packageJson }),
  );
  // `--ignore-scripts` skips only better-sqlite3's native build (a minute of compiling on every run);
  // the binary the repository's own install compiled for this Node is the same version's, copied in.
  const nodeTypes = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).devDependencies[
    '@types/node'
  ];
  npm(['install', '--ignore-scripts', '--prefer-offline', ...tarballs, `@types/node@${nodeTypes}`], dir);
  cpSync(join(repo, 'node_modules/better-sqlite3/build'), join(dir, 'node_modules/better-sqlite3/build'), {
    recursive: true,
  });
  return { dir, tarballs };
}
