import type { Context } from 'hono';
import { HttpError } from '../../core/errors.js';
import { Clients, serializeClient } from '../clients/clients.js';
import { isPublicClient } from '../records.js';
import { clientSchema, clientUpdateSchema } from './schemas.js';
import { validateJson } from './validate.js';

function notFound(): HttpError {
  return new HttpError(404, 'Not Found', { body: { message: 'Not Found' } });
}

/** `/oauth/clients`: the signed-in user's own clients (Passport's ClientController). */
export class ClientsController {
  static inject = [Clients] as const;

  constructor(private readonly clients: Clients) {}

  async index(c: Context): Promise<Response> {
    const list = await this.clients.forUser(c.get('user')!.id);
    return c.json(list.map((client) => serializeClient(client)));
  }

  /** The response is the only time the plain secret is shown. */
  async store(c: Context): Promise<Response> {
    const input = await validateJson(c, clientSchema);
    const { client, plainSecret } = await this.clients.create({
      name: input.name,
      redirect: input.redirect,
      confidential: input.confidential ?? true,
      userId: c.get('user')!.id,
    });
    return c.json(serializeClient(client, plainSecret), 201, { 'Cache-Control': 'no-store' });
  }

  async update(clientId: string, c: Context): Promise<Response> {
    const client = await this.clients.findForUser(clientId, c.get('user')!.id);
    if (!client) throw notFound();
    const input = await validateJson(c, clientUpdateSchema(isPublicClient(client)));
    return c.json(serializeClient(await this.clients.update(client, input)));
  }

  async destroy(clientId: string, c: Context): Promise<Response> {
    const client = await this.clients.findForUser(clientId, c.get('user')!.id);
    if (!client) throw notFound();
    await this.clients.delete(client);
    return c.body(null, 204);
  }
}

export { notFound };
