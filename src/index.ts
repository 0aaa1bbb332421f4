/**
 * Tollgate's public API: what an application imports. Each module's own `index.ts` lists its
 * exports by name; this file gathers them.
 */
export * from './auth/index.js';
export * from './billing/index.js';
export * from './config/index.js';
export * from './core/index.js';
export * from './database/index.js';
export * from './http/index.js';
export * from './kernel/index.js';
export * from './oauth/index.js';
export * from './views/index.js';
