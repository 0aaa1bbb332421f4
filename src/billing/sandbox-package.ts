import { ConfigurationError } from '../core/errors.js';

/** Node's error for an import of a package that is not installed (not one missing deeper inside it). */
function isNotInstalled(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    /Cannot find (package|module) '@tollgate\/sandbox/.test(message)
  );
}

/**
 * Runs `load`, the dynamic import of one `@tollgate/sandbox` entry point. The sandbox is an optional
 * peer dependency, installed only where the offline default is wanted; without it the import fails
 * with `missing`, a message that says what to install or configure instead.
 */
export async function importSandbox<T>(load: () => Promise<T>, missing: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isNotInstalled(error)) throw new ConfigurationError(missing);
    throw error;
  }
}

const INSTALL = '`npm install @tollgate/sandbox`';

/** The offline Stripe sandbox, loaded only where it runs: without a Stripe secret, and by `sandbox:stripe`. */
export function loadStripeSandbox(
  missing = `No Stripe credentials are configured and the offline sandbox is not installed: ${INSTALL}, or set STRIPE_SECRET`,
) {
  return importSandbox(() => import('@tollgate/sandbox/stripe'), missing);
}

/** The offline Braintree sandbox, loaded only where it runs: without Braintree credentials, and by `sandbox:braintree`. */
export function loadBraintreeSandbox(
  missing = `No Braintree credentials are configured and the offline sandbox is not installed: ${INSTALL}, or set BRAINTREE_MERCHANT_ID, BRAINTREE_PUBLIC_KEY and BRAINTREE_PRIVATE_KEY`,
) {
  return importSandbox(() => import('@tollgate/sandbox/braintree'), missing);
}
