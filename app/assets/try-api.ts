import { frontendHeaders } from './http.js';

/**
 * "Try the API": calls protected routes from the page. The HttpOnly `app_token` cookie goes along
 * by itself; the page adds only `X-CSRF-TOKEN` and `X-Requested-With` (see docs/protecting-routes.md).
 */
export function initTryApi(root: HTMLElement): void {
  const output = root.querySelector<HTMLElement>('[data-output]')!;
  for (const button of root.querySelectorAll<HTMLButtonElement>('[data-call]')) {
    button.addEventListener('click', async () => {
      const path = button.dataset.call!;
      output.textContent = `GET ${path} …`;
      try {
        const res = await fetch(path, { headers: frontendHeaders(), credentials: 'same-origin' });
        const text = await res.text();
        let body = text;
        try {
          body = JSON.stringify(JSON.parse(text), null, 2);
        } catch {
          // Not JSON: show it as it came.
        }
        output.dataset.status = String(res.status);
        output.textContent = `GET ${path} → ${res.status} ${res.statusText}\n\n${body}`;
      } catch (err) {
        output.dataset.status = 'error';
        output.textContent = `GET ${path} failed: ${(err as Error).message}`;
      }
    });
  }
}
