import type { Context } from 'hono';
import { currentUser } from '../../auth/index.js';
import { wantsJson } from '../../http/respond.js';
import { RememberedDevices } from './remembered-devices.js';

/** `POST /account/remembered-devices/:id/delete`: the next sign-in on that browser asks for the second factor again. */
export class RememberedDevicesController {
  static inject = [RememberedDevices] as const;

  constructor(private readonly devices: RememberedDevices) {}

  async destroy(c: Context): Promise<Response> {
    const user = currentUser(c)!;
    const id = Number(c.req.param('id'));
    const revoked = Number.isSafeInteger(id) && (await this.devices.revoke(user.id, id));
    const [message, status] = revoked
      ? ['The device will ask for the second step again.', 200 as const]
      : ['There is no such remembered device.', 404 as const];
    if (wantsJson(c)) return c.json({ message }, status);
    c.get('session')?.flash(revoked ? 'status' : 'error', message);
    return c.redirect('/account#remembered-devices', 303);
  }
}
