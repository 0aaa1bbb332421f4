import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import { html, raw } from 'hono/html';

// The page's only script: submits the form as soon as the page loads.
const SUBMIT = 'document.forms[0].submit();';
const SUBMIT_HASH = `'sha256-${createHash('sha256').update(SUBMIT).digest('base64')}'`;

/** Where the form may post: the redirect URI's origin, or its scheme for a native app's own. */
function formTarget(redirectUri: URL): string {
  return redirectUri.protocol === 'http:' || redirectUri.protocol === 'https:'
    ? redirectUri.origin
    : redirectUri.protocol;
}

/**
 * OAuth 2.0 Form Post Response Mode §2: the authorization response as a page that posts its
 * parameters to the redirect URI (`application/x-www-form-urlencoded`), submitted by a script
 * the page's own CSP allows by hash, with a button for a browser that runs no scripts. `url` is the
 * response as a redirect would carry it; the parameters are those it adds to `redirectUri`
 * (in the query, or the fragment for a token).
 */
export function formPostResponse(c: Context, url: string, redirectUri: string): Response {
  const target = new URL(redirectUri);
  const response = new URL(url);
  const fields = [
    ...[...response.searchParams].filter(([name]) => !target.searchParams.has(name)),
    ...new URLSearchParams(response.hash.slice(1)),
  ];
  const page = html`<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Submit this form</title></head>
<body>
<form method="post" action="${redirectUri}">
${fields.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">\n`)}<p>Taking you back to the application. If nothing happens, press <button type="submit">Continue</button></p>
</form>
<script>${raw(SUBMIT)}</script>
</body>
</html>`;
  const policy = [
    "default-src 'none'",
    `script-src ${SUBMIT_HASH}`,
    `form-action ${formTarget(target)}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return c.body(String(page), 200, {
    'Content-Type': 'text/html; charset=UTF-8',
    'Content-Security-Policy': policy,
    'Cache-Control': 'no-store',
    'X-Frame-Options': 'DENY',
  });
}
