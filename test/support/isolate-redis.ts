import { randomUUID } from 'node:crypto';

// Every test file is its own deployment: its Redis keys (rate limits, revocations) start with a
// prefix of its own, so counts left by another file, or by the run on the other database, never
// reach it (each test database then gets a prefix of its own too: test/support/database.ts). Child processes the file starts inherit the prefix through the environment.
process.env.REDIS_PREFIX = `tollgate-test:${randomUUID()}:`;
