/**
 * `tollgate/testing`: helpers for an application's own tests. Not for production code: what they
 * change bypasses authentication.
 */

export { TestClock } from '../core/clock.js';
export { actingAs, actingAsClient, stopActing } from './acting-as.js';
