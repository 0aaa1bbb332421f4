import { randomFillSync } from 'node:crypto';

const ID_BYTES = 20;
const POOL_IDS = 256;
const pool = Buffer.alloc(ID_BYTES * POOL_IDS);
let next = POOL_IDS;

/**
 * A random access-token id (the JWT's `jti`): 160 bits, hex, like `randomId()`. The CSPRNG is
 * asked for 256 ids at a time: one `randomFillSync` per token cost more than the id is worth on
 * the token endpoint. The pool is overwritten as it refills, so an id is never handed out twice.
 */
export function accessTokenId(): string {
  if (next === POOL_IDS) {
    randomFillSync(pool);
    next = 0;
  }
  const start = next++ * ID_BYTES;
  return pool.toString('hex', start, start + ID_BYTES);
}
