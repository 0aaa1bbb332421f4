import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadEnvFile } from './env-file.js';

describe('loadEnvFile: the project root’s .env, under the real environment', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-env-'));
  afterEach(() => {
    delete process.env.TOLLGATE_ENV_FILE_PORT;
    delete process.env.TOLLGATE_ENV_FILE_URL;
  });

  it('reads the variables the environment does not set; a variable already set wins', () => {
    writeFileSync(
      join(dir, '.env'),
      'TOLLGATE_ENV_FILE_PORT=4100\nTOLLGATE_ENV_FILE_URL="http://127.0.0.1:4100"\n',
    );
    process.env.TOLLGATE_ENV_FILE_PORT = '5000';
    expect(loadEnvFile(dir)).toBe(join(dir, '.env'));
    expect(process.env.TOLLGATE_ENV_FILE_URL).toBe('http://127.0.0.1:4100');
    expect(process.env.TOLLGATE_ENV_FILE_PORT).toBe('5000');
  });

  it('is a no-op without a .env', () => {
    rmSync(join(dir, '.env'), { force: true });
    expect(loadEnvFile(dir)).toBeUndefined();
    expect(process.env.TOLLGATE_ENV_FILE_URL).toBeUndefined();
  });
});
