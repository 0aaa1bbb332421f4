import type { Context } from 'hono';
import { csrfToken, requireSession } from '../../auth/context.js';
import { waitMessage } from '../../auth/login-throttle.js';
import { clientAddress, withRateLimitHeaders } from '../../rate-limits/http.js';
import { Clients } from '../clients/clients.js';
import { DeviceAuthorizations } from '../device/device-authorizations.js';
import { formatUserCode, normalizeUserCode } from '../device/user-code.js';
import { UserCodeAttempts } from '../device/user-code-attempts.js';
import { Scopes } from '../scopes.js';
import { randomSecret } from '../secrets.js';
import { deviceConfirmationView, deviceDoneView, deviceEntryView } from './device-views.js';
import { decisionPageHeaders, type PendingDecision, takePending } from './pending-decision.js';

/** The session key of the device request waiting for the user's decision. */
export const PENDING_DEVICE = 'oauth.device';

interface PendingDevice extends PendingDecision {
  deviceCodeId: string;
}

const WRONG_CODE = 'That code is not valid or has expired. Check the code on your device.';

/**
 * The verification page of the device grant (RFC 8628 §3.3), behind login: `GET /oauth/device`
 * asks for the user code (pre-filled from `verification_uri_complete`), `POST` checks it and shows
 * the client and scopes; `POST /oauth/device/authorize` approves and `DELETE` denies.
 */
export class DeviceVerificationController {
  static inject = [DeviceAuthorizations, UserCodeAttempts, Clients, Scopes] as const;

  constructor(
    private readonly authorizations: DeviceAuthorizations,
    private readonly attempts: UserCodeAttempts,
    private readonly clients: Clients,
    private readonly scopes: Scopes,
  ) {}

  async show(c: Context): Promise<Response> {
    const given = c.req.query('user_code') ?? '';
    const canonical = normalizeUserCode(given);
    return this.entry(c, canonical ? formatUserCode(canonical) : given.slice(0, 20));
  }

  async check(c: Context): Promise<Response> {
    const form = await c.req.parseBody();
    const typed = typeof form.user_code === 'string' ? form.user_code.slice(0, 64) : '';
    const user = c.get('user')!;
    const address = clientAddress();
    // Counted before the lookup: parallel guesses cannot outrun the limit.
    const attempt = await this.attempts.attempt(user.id, address);
    if (!attempt.allowed) {
      const error = `Too many wrong codes. ${waitMessage(attempt.results)}`;
      return withRateLimitHeaders(await this.entry(c, typed, error, 429), attempt.results);
    }
    const record = await this.authorizations.pending(typed);
    const client = record ? await this.clients.find(record.clientId) : undefined;
    if (!record || !client) {
      return withRateLimitHeaders(await this.entry(c, typed, WRONG_CODE, 422), attempt.results);
    }
    await this.attempts.succeeded(user.id, address);
    const pending: PendingDevice = { deviceCodeId: record.id, authToken: randomSecret(), userId: user.id };
    requireSession(c).put(PENDING_DEVICE, pending);
    return this.headers(
      await deviceConfirmationView(c, {
        client: { id: client.id, name: client.name },
        scopes: this.scopes.describe(record.scopes),
        userCode: formatUserCode(normalizeUserCode(typed)!),
        csrfToken: csrfToken(c),
        authToken: pending.authToken,
      }),
    );
  }

  async approve(c: Context): Promise<Response> {
    const form = await c.req.parseBody();
    // Without method spoofing in front, the deny form still arrives here.
    if (String(form._method ?? '').toUpperCase() === 'DELETE') return this.decide(c, form, 'denied');
    return this.decide(c, form, 'approved');
  }

  async deny(c: Context): Promise<Response> {
    return this.decide(c, await c.req.parseBody(), 'denied');
  }

  private async decide(
    c: Context,
    form: Record<string, unknown>,
    decision: 'approved' | 'denied',
  ): Promise<Response> {
    const pending = takePending<PendingDevice>(c, PENDING_DEVICE, form);
    if (!pending || !(await this.authorizations.decide(pending.deviceCodeId, decision, pending.userId))) {
      return this.done(
        c,
        'Code expired',
        'This code has expired or was already answered. Start again on your device.',
        400,
      );
    }
    return decision === 'approved'
      ? this.done(c, 'Device connected', 'You can go back to your device: it is signed in now.')
      : this.done(c, 'Access denied', 'The device was not connected. You can close this page.');
  }

  private async entry(c: Context, userCode: string, error?: string, status?: number): Promise<Response> {
    return this.headers(await deviceEntryView(c, { csrfToken: csrfToken(c), userCode, error, status }));
  }

  private async done(c: Context, title: string, message: string, status?: number): Promise<Response> {
    return this.headers(await deviceDoneView(c, { title, message, status }));
  }

  private headers(response: Response): Response {
    for (const [name, value] of Object.entries(decisionPageHeaders)) response.headers.set(name, value);
    return response;
  }
}
