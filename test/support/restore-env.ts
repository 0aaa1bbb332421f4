import { afterAll } from 'vitest';

// Test files share their worker (isolate: false in vitest.config.ts): what one file sets in
// process.env (a DATABASE_URL for the CLI it runs in process, a LOG_LEVEL) is put back when it
// ends, so the next file in the worker starts from the same environment as the first.
const saved = { ...process.env };

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
});
