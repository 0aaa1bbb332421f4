import type { Context } from 'hono';
import { askToLogInAgain, authMethodsOf, authTimeOf, takeNewLogin } from '../../auth/auth-time.js';
import { requireSession } from '../../auth/context.js';
import { LoginSteps } from '../../auth/second-factor.js';
import { SessionStore } from '../../auth/session-store.js';
import type { User } from '../../auth/user.js';
import type { TollgateConfig } from '../../core/config.js';
import { EventDispatcher } from '../../core/events.js';
import { ConfigKey } from '../../core/keys.js';
import { renderErrorPage } from '../../http/error-handler.js';
import { SecurityHeaders } from '../../http/security-headers.js';
import { type AuthorizationRequest, approvalScopes } from '../authorization/authorization-request.js';
import { AuthorizationService } from '../authorization/authorization-service.js';
import { RequestObjects } from '../authorization/request-objects.js';
import { documentHost } from '../cimd/client-id-url.js';
import { ClientMetadataStore } from '../clients/client-metadata-store.js';
import { ClientProvenances } from '../clients/client-provenance.js';
import { OAuthError } from '../errors.js';
import { ConsentGranted } from '../events.js';
import { sessionSid } from '../logout/session-sid.js';
import { wantsMoreThan } from '../oidc/amr.js';
import { authorizationParameters, checkPushedWhenRequired } from '../par/pushed-or-plain.js';
import { PushedRequests } from '../par/pushed-requests.js';
import { Scopes } from '../scopes.js';
import { randomSecret } from '../secrets.js';
import { type ApprovalView, ApprovalViewKey } from './approval-view.js';
import {
  authorizationAnswer,
  authorizationErrorPage,
  authorizationErrorResponse,
  authorizationRedirect,
  hostOf,
} from './authorization-errors.js';
import { asAuthorizeGet, authorizationRequestParams } from './authorization-params.js';
import { decisionPageHeaders, type PendingDecision, takePendingOnce } from './pending-decision.js';

/** The session key of the request waiting for the user's decision. */
export const PENDING_AUTHORIZATION = 'oauth.authorization';

interface PendingAuthorization extends PendingDecision {
  request: AuthorizationRequest;
  /** When the user logged in (seconds), for an ID token's `auth_time`. */
  authTime: number | null;
  /** The login session's `sid`, for the ID token (absent in requests kept from before). */
  sid?: string;
  /** How the user signed in, for the ID token's `amr` and `acr` (absent in requests kept from before). */
  amr?: string[];
}

/**
 * `GET /oauth/authorize` (or a `POST` of the same parameters, OpenID Connect Core §3.1.2.1) shows
 * the approval page; the page's `POST` approves and `DELETE` denies the pending request, which the
 * session binds to the user and to the `auth_token` of the page's forms.
 */
export class ApprovalController {
  static inject = [
    AuthorizationService,
    Scopes,
    ApprovalViewKey,
    PushedRequests,
    ConfigKey,
    ClientProvenances,
    ClientMetadataStore,
    SecurityHeaders,
    LoginSteps,
    EventDispatcher,
    RequestObjects,
    SessionStore,
  ] as const;

  constructor(
    private readonly service: AuthorizationService,
    private readonly scopes: Scopes,
    private readonly view: ApprovalView,
    private readonly pushed: PushedRequests,
    private readonly config: TollgateConfig,
    private readonly provenances: ClientProvenances,
    private readonly extras: ClientMetadataStore,
    private readonly securityHeaders: SecurityHeaders,
    private readonly steps: LoginSteps,
    private readonly events: EventDispatcher,
    private readonly requestObjects: RequestObjects,
    private readonly sessions: SessionStore,
  ) {}

  /** Whether the user has a second factor to give (a step-up can then ask for it). */
  private async secondFactorOf(user: User): Promise<boolean> {
    return (await this.steps.secondFactorsFor(user)).length > 0;
  }

  async authorize(c: Context): Promise<Response> {
    let query: Record<string, string> = {};
    try {
      const sent = (await authorizationRequestParams(c)) ?? {};
      const read = await authorizationParameters(sent, this.pushed);
      // Core §6: a request object's parameters, read in before anything is checked.
      query = await this.requestObjects.resolve(read.params);
      const { request, client } = await this.service.validate(query);
      checkPushedWhenRequired(client, read.pushed, this.config.oauth);
      const user = c.get('user')!;
      const session = requireSession(c);
      const authTime = authTimeOf(session);
      const amr = authMethodsOf(session);
      const silent = request.prompt.includes('none');
      // A login the user made because this endpoint asked for it answers prompt=login and max_age;
      // `acr_values` asking for two factors after a password alone asks for a login with both.
      const newLogin = takeNewLogin(session);
      const stepUp = wantsMoreThan(request.acrValues ?? [], amr) && (await this.secondFactorOf(user));
      if (stepUp || (!newLogin && this.service.needsNewLogin(request, authTime))) {
        if (silent) throw OAuthError.loginRequired();
        askToLogInAgain(session);
        // A pushed request was taken by this visit: the way back after the login needs a fresh one.
        const back = read.pushed
          ? { client_id: client.id, request_uri: (await this.pushed.push(client.id, query)).requestUri }
          : sent;
        return authorizationRedirect(c, `/login?intended=${encodeURIComponent(asAuthorizeGet(back))}`);
      }
      if (await this.service.skipsApproval(client, user.id, request, query.prompt)) {
        const url = await this.service.approve(request, user.id, authTime, client, sessionSid(session), amr);
        return this.answer(c, url, request);
      }
      if (silent) throw OAuthError.consentRequired();
      const pending: PendingAuthorization = {
        request,
        authToken: randomSecret(),
        userId: user.id,
        authTime,
        sid: sessionSid(session),
        amr,
      };
      session.put(PENDING_AUTHORIZATION, pending);
      const provenance = await this.provenances.of(client);
      const { logoUri, policyUri, tosUri } = await this.extras.find(client.id);
      const rendered = await this.view(c, {
        client: {
          id: client.id,
          name: client.name,
          documentHost: documentHost(client.id),
          redirectHost: hostOf(request.redirectUri),
          provenance,
          unverified: provenance.registeredBy === 'itself',
          ...(logoUri ? { logoUri } : {}),
          ...(policyUri ? { policyUri } : {}),
          ...(tosUri ? { tosUri } : {}),
        },
        scopes: this.scopes.describe(approvalScopes(request)),
        user,
        csrfToken: session.csrfToken,
        authToken: pending.authToken,
        state: request.state,
        action: '/oauth/authorize',
      });
      const response = typeof rendered === 'string' ? c.html(rendered) : rendered;
      for (const [name, value] of Object.entries(decisionPageHeaders)) response.headers.set(name, value);
      // The registered logo comes from the client's site: the page's policy lets that one image in.
      if (logoUri && !response.headers.has('content-security-policy')) {
        const origin = new URL(logoUri).origin;
        response.headers.set('Content-Security-Policy', this.securityHeaders.policyWith('img-src', origin));
      }
      return response;
    } catch (err) {
      return authorizationErrorResponse(c, this.service, err, query);
    }
  }

  async approve(c: Context): Promise<Response> {
    // An authorization request sent by POST rather than a decision.
    if ((await authorizationRequestParams(c)) !== undefined) return this.authorize(c);
    const form = await c.req.parseBody();
    // Without method spoofing in front, the deny form still arrives here.
    if (String(form._method ?? '').toUpperCase() === 'DELETE') return this.deny(c);
    const pending = await this.takePending(c, form);
    if (!pending) return this.expired(c);
    try {
      const { request, userId, authTime, sid, amr } = pending;
      const url = await this.service.approve(
        request,
        userId,
        authTime ?? null,
        undefined,
        sid ?? null,
        amr ?? null,
      );
      await this.events.dispatch(new ConsentGranted(userId, request.clientId, request.scopes));
      return this.answer(c, url, pending.request);
    } catch (err) {
      if (err instanceof OAuthError) return authorizationErrorPage(c, err);
      throw err;
    }
  }

  async deny(c: Context): Promise<Response> {
    const pending = await this.takePending(c, await c.req.parseBody());
    if (!pending) return this.expired(c);
    return this.answer(c, this.service.deny(pending.request), pending.request);
  }

  /** The authorization response in the request's response mode (a redirect, or a Form Post page). */
  private answer(c: Context, url: string, request: AuthorizationRequest): Response {
    return authorizationAnswer(c, url, { uri: request.redirectUri, responseMode: request.responseMode });
  }

  private takePending(c: Context, form: Record<string, unknown>): Promise<PendingAuthorization | undefined> {
    return takePendingOnce<PendingAuthorization>(c, this.sessions, PENDING_AUTHORIZATION, form);
  }

  private expired(c: Context): Response {
    return c.html(
      renderErrorPage(
        c,
        400,
        'This authorization request has expired or was already answered. Start again from the application.',
      ),
      400,
      decisionPageHeaders,
    );
  }
}
