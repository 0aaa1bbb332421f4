/**
 * The pages' passkey script, served as it is (no build step): it runs after @simplewebauthn/browser's
 * bundle (`globalThis.SimpleWebAuthnBrowser`) and drives the login page's button and autofill, the
 * second step's button and the account page's "Add a passkey" form. Each posts JSON with the page's
 * CSRF token and follows the `redirect` it is given; a refusal is shown in the page's alert.
 */
export const PASSKEY_SCRIPT = `
const { startAuthentication, startRegistration, browserSupportsWebAuthn, browserSupportsWebAuthnAutofill } =
  globalThis.SimpleWebAuthnBrowser;
const token = () => document.querySelector('input[name="_token"]')?.value ?? '';
const alertBox = () => document.getElementById('passkey-error');

async function post(path, body) {
  const res = await fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-CSRF-TOKEN': token() },
    body: JSON.stringify(body ?? {}),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.message || 'Something went wrong. Please try again.');
  return data;
}

function show(error) {
  const box = alertBox();
  if (!box) return;
  // The user closing the browser's dialog is no failure worth a message.
  if (error && (error.name === 'NotAllowedError' || error.name === 'AbortError')) return;
  if (error && error.code === 'ERROR_CEREMONY_ABORTED') return;
  box.textContent = error instanceof Error ? error.message : String(error);
  box.className = 'flash flash-error';
  box.hidden = false;
}

// Autofill is offered, not asked for: where the browser cannot offer it (a host that is an IP
// address is no valid relying party), the page says nothing; a refusal after a pick is shown.
function showPicked(error) {
  if (error && (error.code === 'ERROR_INVALID_DOMAIN' || error.code === 'ERROR_INVALID_RP_ID')) return;
  if (error && error.name === 'SecurityError') return;
  show(error);
}

async function signIn(autofill) {
  const intended = document.querySelector('input[name="intended"]')?.value;
  const optionsJSON = await post('/login/passkey/options');
  const credential = await startAuthentication({ optionsJSON, useBrowserAutofill: autofill });
  const remember = document.querySelector('input[name="remember_device"]')?.checked === true;
  const answer = await post('/login/passkey', { credential, intended, remember });
  window.location.assign(answer.redirect);
}

if (browserSupportsWebAuthn()) {
  for (const button of document.querySelectorAll('[data-passkey-sign-in]')) {
    button.hidden = false;
    button.addEventListener('click', () => signIn(false).catch(show));
  }
  const addForm = document.getElementById('passkey-add-form');
  if (addForm) {
    addForm.addEventListener('submit', (event) => {
      event.preventDefault();
      const name = addForm.querySelector('input[name="name"]').value;
      (async () => {
        const optionsJSON = await post('/account/passkeys/options');
        const credential = await startRegistration({ optionsJSON });
        const answer = await post('/account/passkeys', { name, credential });
        window.location.assign(answer.redirect);
      })().catch(show);
    });
  }
  if (document.querySelector('input[autocomplete~="webauthn"]')) {
    browserSupportsWebAuthnAutofill().then((yes) => (yes ? signIn(true).catch(showPicked) : undefined));
  }
}
`;
