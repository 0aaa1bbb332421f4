import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command, CommanderError } from 'commander';
import { loadEnvFile } from '../config/env-file.js';
import { CliError, CliExit } from './context.js';

/** Each file in `commands/` exports `register(program)`; modules add commands without editing this file. */
export async function buildProgram(): Promise<Command> {
  const program = new Command('tollgate')
    .description('Tollgate: OAuth 2.0 server, protected routes and subscription billing.')
    .showHelpAfterError()
    .exitOverride();
  const folder = join(import.meta.dirname, 'commands');
  for (const file of (await readdir(folder)).sort()) {
    if (!/\.(ts|js)$/.test(file) || /\.(d|test)\.ts$/.test(file)) continue;
    const mod = (await import(pathToFileURL(join(folder, file)).href)) as { register?: (p: Command) => void };
    mod.register?.(program);
  }
  for (const command of program.commands) command.exitOverride().showHelpAfterError();
  return program;
}

export async function run(argv: string[]): Promise<number> {
  const program = await buildProgram();
  try {
    // The service reads the same file (app/main.ts): one configuration for both.
    loadEnvFile();
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 1;
    if (err instanceof CliExit) return err.code;
    if (err instanceof CliError) {
      process.stderr.write(`Error: ${err.message}\n`);
      return 1;
    }
    process.stderr.write(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await run(process.argv.slice(2));
}
