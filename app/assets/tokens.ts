import { clearErrors, formatDate, h, lastUsed, secretBox, showErrors } from './dom.js';
import { ApiError, api, apiDelete } from './http.js';

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

/** Personal access tokens: create (token shown once), list, delete — over `/oauth/personal-access-tokens`. */
export function initPersonalTokens(root: HTMLElement): void {
  const list = root.querySelector<HTMLElement>('[data-list]')!;
  const empty = root.querySelector<HTMLElement>('[data-empty]')!;
  const form = root.querySelector<HTMLFormElement>('[data-token-form]')!;
  const secretSlot = root.querySelector<HTMLElement>('[data-secret-slot]')!;

  async function load() {
    const tokens = (await api<Token[]>('GET', '/oauth/personal-access-tokens')).filter((t) => !t.revoked);
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
          await apiDelete(`/oauth/personal-access-tokens/${encodeURIComponent(token.id)}`);
          // A deleted token's copy box would offer a secret that no longer works.
          secretSlot.querySelector(`[data-secret-for="${CSS.escape(token.id)}"]`)?.remove();
          await load();
        });
        return h(
          'tr',
          { 'data-token': token.id },
          h('td', {}, h('strong', {}, token.name ?? '(unnamed)')),
          h('td', {}, scopeList(token.scopes)),
          h('td', { class: 'small muted' }, `Created ${formatDate(token.created_at)}`),
          h('td', { class: 'small muted' }, `Expires ${formatDate(token.expires_at)}`),
          h('td', { class: 'small muted', 'data-last-used': true }, lastUsed(token.last_used_at)),
          h('td', {}, remove),
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
        '/oauth/personal-access-tokens',
        {
          name: data.get('name'),
          scopes: data.getAll('scopes'),
          expires_in_days: data.get('expires_in_days') ? Number(data.get('expires_in_days')) : null,
        },
      );
      clearErrors(form);
      form.reset();
      const box = secretBox(
        `Token “${created.token.name ?? ''}” created`,
        'Copy it now: it is not stored anywhere you can read it again. Send it as "Authorization: Bearer <token>".',
        [['Token', created.accessToken]],
      );
      box.dataset.secretFor = created.token.id;
      secretSlot.replaceChildren(box);
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
