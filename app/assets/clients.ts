import { clearErrors, formatDate, h, lastUsed, secretBox, showErrors } from './dom.js';
import { GRACE_CHOICES } from './grace-choices.js';
import { ApiError, api, apiDelete, scoped } from './http.js';

interface Client {
  id: string;
  name: string;
  redirect: string;
  confidential: boolean;
  created_at: string;
  last_used_at: string | null;
  secret?: string;
}

/** The OAuth clients panel: list, create (secret shown once), edit, delete — over `/oauth/clients`. */
export function initClients(root: HTMLElement): void {
  const list = root.querySelector<HTMLElement>('[data-list]')!;
  const empty = root.querySelector<HTMLElement>('[data-empty]')!;
  const form = root.querySelector<HTMLFormElement>('[data-client-form]')!;
  const title = root.querySelector<HTMLElement>('[data-form-title]')!;
  const submit = form.querySelector<HTMLButtonElement>('[type="submit"]')!;
  const cancel = form.querySelector<HTMLButtonElement>('[data-cancel-edit]')!;
  const secretSlot = root.querySelector<HTMLElement>('[data-secret-slot]')!;
  // The server's edit page (/dashboard/clients/{id}/edit) posts its form itself; a member who may
  // only see an organization's clients keeps the server's rows, which offer no actions.
  if (form.dataset.editing || root.dataset.readOnly !== undefined) return;
  let editing: Client | undefined;

  function setMode(client?: Client) {
    editing = client;
    clearErrors(form);
    title.textContent = client ? `Edit “${client.name}”` : 'Create a client';
    submit.textContent = client ? 'Save' : 'Create client';
    cancel.classList.toggle('hidden', !client);
    form
      .querySelector('[name="confidential"]')
      ?.closest('.field')
      ?.classList.toggle('hidden', Boolean(client));
    (form.elements.namedItem('name') as HTMLInputElement).value = client?.name ?? '';
    (form.elements.namedItem('redirect') as HTMLInputElement).value = client?.redirect ?? '';
    if (client) (form.elements.namedItem('name') as HTMLInputElement).focus();
  }

  function row(client: Client): HTMLTableRowElement {
    const edit = h('button', { type: 'button', class: 'btn', 'data-edit': client.id }, 'Edit');
    const remove = h(
      'button',
      { type: 'button', class: 'btn btn-danger', 'data-delete': client.id },
      'Delete',
    );
    edit.addEventListener('click', () => {
      setMode(client);
      form.scrollIntoView({ behavior: 'smooth', block: 'start' });
    });
    remove.addEventListener('click', async () => {
      if (!confirm(`Delete the client “${client.name}”? Its tokens stop working.`)) return;
      await apiDelete(scoped(`/oauth/clients/${encodeURIComponent(client.id)}`));
      if (editing?.id === client.id) setMode();
      await load();
    });
    const actions = client.confidential ? [edit, rotateForm(client), remove] : [edit, remove];
    return h(
      'tr',
      { 'data-client': client.id },
      h(
        'td',
        {},
        h('strong', {}, client.name),
        h('div', { class: 'small muted' }, client.confidential ? 'Confidential' : 'Public (PKCE)'),
      ),
      h('td', {}, h('span', { class: 'mono', 'data-client-id': true }, client.id)),
      h('td', {}, h('span', { class: 'mono' }, client.redirect)),
      h('td', { class: 'small muted nowrap' }, formatDate(client.created_at)),
      h('td', { class: 'small muted nowrap', 'data-last-used': true }, lastUsed(client.last_used_at)),
      h('td', {}, h('div', { class: 'actions' }, ...actions)),
    );
  }

  /** The row's rotate form, over `POST /oauth/clients/{id}/secret`: the new secret shown once. */
  function rotateForm(client: Client): HTMLFormElement {
    const grace = h(
      'select',
      { name: 'grace_seconds' },
      ...GRACE_CHOICES.map(([seconds, label]) => h('option', { value: String(seconds) }, label)),
    );
    const form = h(
      'form',
      { class: 'inline m-0', 'data-rotate': client.id },
      h('label', { class: 'small' }, 'Old secret ', grace),
      ' ',
      h('button', { type: 'submit', class: 'btn' }, 'Rotate secret'),
    ) as HTMLFormElement;
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const rotated = await api<Client & { previous_secret_expires_at: string | null }>(
        'POST',
        scoped(`/oauth/clients/${encodeURIComponent(client.id)}/secret`),
        { grace_seconds: Number((grace as HTMLSelectElement).value) },
      );
      const until = rotated.previous_secret_expires_at;
      secretSlot.replaceChildren(
        secretBox(
          `New secret for “${rotated.name}”`,
          `Copy the secret now: it is stored hashed and will not be shown again. ${until ? `The old secret keeps working until ${new Date(until).toUTCString()}.` : 'The old secret no longer works.'}`,
          [
            ['Client ID', rotated.id],
            ['Secret', rotated.secret ?? ''],
          ],
        ),
      );
    });
    return form;
  }

  async function load() {
    const clients = await api<Client[]>('GET', scoped('/oauth/clients'));
    list.replaceChildren(...clients.map(row));
    empty.classList.toggle('hidden', clients.length > 0);
    list.closest('.table-wrap')?.classList.toggle('hidden', clients.length === 0);
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const body: Record<string, unknown> = { name: data.get('name'), redirect: data.get('redirect') };
    submit.disabled = true;
    try {
      if (editing) {
        await api('PUT', scoped(`/oauth/clients/${encodeURIComponent(editing.id)}`), body);
        secretSlot.replaceChildren();
      } else {
        body.confidential = data.get('confidential') === 'on';
        const created = await api<Client>('POST', scoped('/oauth/clients'), body);
        const values: Array<[string, string]> = [['Client ID', created.id]];
        if (created.secret) values.push(['Secret', created.secret]);
        secretSlot.replaceChildren(
          secretBox(
            `Client “${created.name}” created`,
            created.secret
              ? 'Copy the secret now: it is stored hashed and will not be shown again.'
              : 'A public client has no secret: it must use PKCE.',
            values,
          ),
        );
      }
      setMode();
      await load();
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      showErrors(form, err.errors, err.message);
    } finally {
      submit.disabled = false;
    }
  });
  cancel.addEventListener('click', () => setMode());
  void load();
}
