/** Members only a private or secret key has (RFC 7518 §6.2.2, §6.3.2, §6.4; RFC 8037 §2). */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/**
 * Why `value` is not a JSON Web Key Set of public keys (RFC 7517 §5), or undefined when it is:
 * an object with a non-empty `keys` array of at most 20 keys, each with a `kty` and no private
 * or symmetric key material (a client registers what anyone may see).
 */
export function publicKeySetProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'it is not a JSON object.';
  const keys = (value as { keys?: unknown }).keys;
  if (!Array.isArray(keys) || keys.length === 0 || keys.length > 20) {
    return 'its keys must be an array of 1 to 20 keys.';
  }
  for (const key of keys) {
    if (typeof key !== 'object' || key === null || typeof (key as { kty?: unknown }).kty !== 'string') {
      return 'every key must be an object with a kty.';
    }
    if (PRIVATE_MEMBERS.some((member) => member in key)) return 'it holds private or secret key material.';
  }
  return undefined;
}
