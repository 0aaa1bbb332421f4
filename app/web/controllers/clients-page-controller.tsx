import type { Context } from 'hono';
import { ConfigKey, csrfToken, HttpError, type TollgateConfig, ValidationError } from 'tollgate';
import { Clients, ClientsController } from 'tollgate/oauth';
import { renderPage } from 'tollgate/views';
import { type DashboardScope, DashboardScopes } from '../dashboard-scope.js';
import { ClientsPage, type ClientsPageProps } from '../pages/clients-page.js';
import { scriptUrl } from '../scripts.js';

type Section = Pick<ClientsPageProps, 'created' | 'errors' | 'old' | 'editing'>;

/**
 * `/dashboard/clients` as plain form posts (no JavaScript needed): create answers with the page
 * itself (the secret shown once, never stored in the session), a refused create with the page and
 * the field messages (422); edit is its own page (`/dashboard/clients/{id}/edit`) whose form puts
 * the changes; update and delete redirect back with a flashed message. Validation and the
 * per-user limit are the JSON API's (`ClientsController.createForUser`, `updateForUser`). With
 * `?organization_id=` (the switcher) every action works on that organization's clients instead.
 */
export class ClientsPageController {
  static inject = [ConfigKey, Clients, ClientsController, DashboardScopes] as const;

  constructor(
    private readonly config: TollgateConfig,
    private readonly clients: Clients,
    private readonly api: ClientsController,
    private readonly scopes: DashboardScopes,
  ) {}

  show(c: Context): Promise<Response> {
    return this.page(c);
  }

  async page(c: Context, section: Section = {}, status = 200): Promise<Response> {
    const scope = await this.scopes.read(c);
    const userId = c.get('user')!.id;
    const clients =
      scope.organizationId === undefined
        ? await this.clients.forUser(userId)
        : await this.clients.forOrganization(userId, scope.organizationId);
    const page = (
      <ClientsPage
        script={await scriptUrl()}
        baseUrl={this.config.app.url.replace(/\/+$/, '')}
        csrfToken={csrfToken(c)}
        clients={clients}
        scope={scope}
        {...section}
      />
    );
    const res = await renderPage(c, { title: 'OAuth clients', status }, page);
    res.headers.set('Cache-Control', 'no-store');
    return res;
  }

  async store(c: Context): Promise<Response> {
    const form = await c.req.parseBody();
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    const old = {
      name: text(form.name),
      redirect: text(form.redirect),
      confidential: form.confidential === 'on',
    };
    const { organizationId } = await this.scopes.read(c);
    try {
      const fields = { name: old.name, redirect: old.redirect, confidential: old.confidential };
      const { client, plainSecret } = await this.api.createForUser(c.get('user')!.id, fields, organizationId);
      const created = { name: client.name, id: client.id, secret: plainSecret ?? null };
      return await this.page(c, { created }, 201);
    } catch (err) {
      if (err instanceof ValidationError) return this.page(c, { errors: err.errors, old }, 422);
      throw err;
    }
  }

  /** `GET /dashboard/clients/{client}/edit`: the page with the form filled in to change that client. */
  async edit(clientId: string, c: Context): Promise<Response> {
    const scope = await this.scopes.read(c);
    const client = await this.api.findManaged(clientId, c.get('user')!.id, scope.organizationId);
    if (!client) return this.#gone(c, scope);
    return this.page(c, { editing: client });
  }

  /** `PUT /dashboard/clients/{client}`: the edit form's post. */
  async update(clientId: string, c: Context): Promise<Response> {
    const user = c.get('user')!;
    const form = await c.req.parseBody();
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    const old = { name: text(form.name), redirect: text(form.redirect) };
    const scope = await this.scopes.read(c);
    try {
      const updated = await this.api.updateForUser(user.id, clientId, old, scope.organizationId);
      if (!updated) return this.#gone(c, scope);
      c.get('session')?.flash('status', `Client “${updated.name}” saved.`);
      return c.redirect(`/dashboard/clients${scope.query}`, 303);
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      const editing = await this.api.findManaged(clientId, user.id, scope.organizationId);
      if (!editing) return this.#gone(c, scope);
      return this.page(c, { editing, errors: err.errors, old }, 422);
    }
  }

  /** `POST /dashboard/clients/{client}/secret`: the page with the new secret shown once. */
  async rotateSecret(clientId: string, c: Context): Promise<Response> {
    const form = await c.req.parseBody();
    const scope = await this.scopes.read(c);
    try {
      const grace = { grace_seconds: Number(form.grace_seconds ?? 0) };
      const rotated = await this.api.rotateForUser(c.get('user')!.id, clientId, grace, scope.organizationId);
      const { name, id } = rotated.client;
      const created = { name, id, secret: rotated.secret, rotated: { previousUntil: rotated.previousUntil } };
      return await this.page(c, { created });
    } catch (err) {
      // 403 (a role that may not manage the organization's clients) is an error page, not a flash.
      if (!(err instanceof HttpError) || err.status >= 500 || err.status === 403) throw err;
      if (err.status === 404) return this.#gone(c, scope);
      c.get('session')?.flash('error', err.message);
      return c.redirect(`/dashboard/clients${scope.query}`, 303);
    }
  }

  #gone(c: Context, scope: DashboardScope): Response {
    c.get('session')?.flash('error', 'That client was already deleted.');
    return c.redirect(`/dashboard/clients${scope.query}`, 303);
  }

  async destroy(clientId: string, c: Context): Promise<Response> {
    const scope = await this.scopes.read(c);
    const userId = c.get('user')!.id;
    const client = await this.api.findManaged(clientId, userId, scope.organizationId);
    // Of two deletions at once, the one that did not delete it is told it was already deleted.
    if (!client || !(await this.clients.delete(client, userId))) return this.#gone(c, scope);
    c.get('session')?.flash('status', `Client “${client.name}” deleted.`);
    return c.redirect(`/dashboard/clients${scope.query}`, 303);
  }
}
