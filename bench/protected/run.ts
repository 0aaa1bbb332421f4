// `npx tsx bench/protected/run.ts`: issue 5's benchmark alone — the protected route (auth:api +
// scopes) with a reused token and with a new token every request, against a bare Hono route and
// a route that only verifies the RS256 signature, on SQLite. The shared runner does the work.
process.env.BENCH_ONLY ??= '^bare$|^jose-verify$|^tollgate\\.protected\\.';
process.env.BENCH_DATABASES ??= 'sqlite';
await import('../run.js');
