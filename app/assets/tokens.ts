import { clearErrors, formatDate, h, lastUsed, secretBox, showErrors } from './dom.js';
import { ApiError, api, apiDelete, scoped } from './http.js';

interface Token {
  id: string;
  name: string | null;
  scopes: string[];
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked: boolean;
  client?: { id: string; name: string };
}

function scopeList(scopes: string[]): HTMLElement {
  if (scopes.length === 0) return h('span', { class: 'muted' }, 'no scopes');
  return h('span', {}, ...scopes.map((s) => h('span', { class: 'badge mr-xs' }, s)));
}

/**
 * Personal access tokens: create or regenerate (the token shown once), list, delete — over
 * `/oauth/personal-access-tokens`.
 */
export function initPersonalTokens(root: HTMLElement): void {
  const list = root.querySelector<HTMLElement>('[data-list]')!;
  const empty = root.querySelector<HTMLElement>('[data-empty]')!;
  const form = root.querySelector<HTMLFormElement>('[data-token-form]')!;
  const secretSlot = root.querySelector<HTMLElement>('[data-secret-slot]')!;

  const NOTE =
    'Copy it now: it is not stored anywhere you can read it again. Send it as "Authorization: Bearer <token>".';
  /** The one place a new token is shown: a box that replaces any other. */
  function showToken(title: string, made: { accessToken: string; token: Token }) {
    const box = secretBox(title, NOTE, [['Token', made.accessToken]]);
    box.dataset.secretFor = made.token.id;
    secretSlot.replaceChildren(box);
  }

  async function regenerate(token: Token) {
    const name = token.name ?? '';
    if (!confirm(`Regenerate the token “${name}”? Programs using it lose access until they get the new one.`))
      return;
    try {
      const path = scoped(`/oauth/personal-access-tokens/${encodeURIComponent(token.id)}/regenerate`);
      const made = await api<{ accessToken: string; token: Token }>('POST', path);
      showToken(`Token “${name}” regenerated: the old one no longer works`, made);
    } catch (err) {
      // 404: regenerated or deleted meanwhile (another tab, a double click); the list shows what is left.
      if (!(err instanceof ApiError && err.status === 404)) throw err;
      secretSlot.querySelector(`[data-secret-for="${CSS.escape(token.id)}"]`)?.remove();
    }
    await load();
  }

  async function load() {
    const tokens = (await api<Token[]>('GET', scoped('/oauth/personal-access-tokens'))).filter(
      (t) => !t.revoked,
    );
    list.replaceChildren(
      ...tokens.map((token) => {
        const remove = h(
          'button',
          { type: 'button', class: 'btn btn-danger', 'data-delete': token.id },
          'Delete',
        );
        remove.addEventListener('click', async () => {
          if (!confirm(`Delete the token “${token.name ?? ''}”? Programs using it lose access at once.`))
            return;
          await apiDelete(scoped(`/oauth/personal-access-tokens/${encodeURIComponent(token.id)}`));
          // A deleted token's copy box would offer a secret that no longer works.
          secretSlot.querySelector(`[data-secret-for="${CSS.escape(token.id)}"]`)?.remove();
          await load();
        });
        const again = h(
          'button',
          { type: 'button', class: 'btn', 'data-regenerate': token.id },
          'Regenerate',
        );
        again.addEventListener('click', () => void regenerate(token));
        return h(
          'tr',
          { 'data-token': token.id },
          h('td', {}, h('strong', {}, token.name ?? '(unnamed)')),
          h('td', {}, scopeList(token.scopes)),
          h('td', { class: 'small muted' }, `Created ${formatDate(token.created_at)}`),
          h('td', { class: 'small muted' }, `Expires ${formatDate(token.expires_at)}`),
          h('td', { class: 'small muted', 'data-last-used': true }, lastUsed(token.last_used_at)),
          h('td', {}, h('div', { class: 'actions' }, again, remove)),
        );
      }),
    );
    empty.classList.toggle('hidden', tokens.length > 0);
    list.closest('.table-wrap')?.classList.toggle('hidden', tokens.length === 0);
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const submit = form.querySelector<HTMLButtonElement>('[type="submit"]')!;
    submit.disabled = true;
    try {
      const created = await api<{ accessToken: string; token: Token }>(
        'POST',
        scoped('/oauth/personal-access-tokens'),
        {
          name: data.get('name'),
          scopes: data.getAll('scopes'),
          expires_in_days: data.get('expires_in_days') ? Number(data.get('expires_in_days')) : null,
        },
      );
      clearErrors(form);
      form.reset();
      showToken(`Token “${created.token.name ?? ''}” created`, created);
      await load();
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      showErrors(form, err.errors, err.message);
    } finally {
      submit.disabled = false;
    }
  });
  void load();
}
