import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Context } from 'hono';
import { PASSKEY_SCRIPT } from './passkey-script.js';

let bundle: string | undefined;

/** @simplewebauthn/browser's own bundle (it sets `globalThis.SimpleWebAuthnBrowser`), read once. */
function webauthnBundle(): string {
  if (bundle === undefined) {
    const main = createRequire(import.meta.url).resolve('@simplewebauthn/browser');
    bundle = readFileSync(join(dirname(main), '..', 'dist', 'bundle', 'index.umd.min.js'), 'utf8');
  }
  return bundle;
}

/** The passkey pages' two scripts, versioned in their URLs, so cached for good. */
export class PasskeyScriptController {
  webauthn(c: Context): Response {
    return script(c, webauthnBundle());
  }

  passkeys(c: Context): Response {
    return script(c, PASSKEY_SCRIPT);
  }
}

function script(c: Context, code: string): Response {
  return c.body(code, 200, {
    'Content-Type': 'text/javascript; charset=utf-8',
    'Cache-Control': 'public, max-age=31536000, immutable',
  });
}
