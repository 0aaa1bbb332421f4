import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import type { User } from '../../auth/user.js';
import { InjectionKey } from '../../core/container.js';
import { CsrfField } from '../../views/components.js';
import { renderPage } from '../../views/render.js';
import type { ClientProvenance } from '../clients/client-provenance.js';
import type { Scope } from '../scopes.js';

/** What the approval page needs. The forms must post `_token`, `auth_token` and `state` back. */
export interface ApprovalViewProps {
  /**
   * `documentHost`: for a client registered by its metadata document (its id is an https URL),
   * the host serving it, which the page shows beside the name the document claims.
   * `redirectHost`: where the answer goes (the host of the request's redirect URI).
   * `provenance`: who registered the client; `unverified` when it registered itself (dynamic
   * registration or a metadata document), so nobody this server knows vouches for its name.
   */
  client: {
    id: string;
    name: string;
    documentHost?: string;
    redirectHost: string;
    provenance: ClientProvenance;
    unverified: boolean;
    /** What the client registered (RFC 7591 §2): its logo, privacy policy and terms of service. */
    logoUri?: string;
    policyUri?: string;
    tosUri?: string;
  };
  scopes: Scope[];
  user: User;
  csrfToken: string;
  /** Binds the decision to this pending request. */
  authToken: string;
  state: string | null;
  /** Where both forms post: approve with POST, deny with `_method=DELETE`. */
  action: string;
}

/**
 * Renders the approval page. Replace it with `oauthProvider({ approvalView })`; the response gets
 * `X-Frame-Options: DENY` and `no-store` whatever the view returns, and the application's strict
 * Content-Security-Policy (`frame-ancestors 'none'` included) unless the view sets its own.
 */
export type ApprovalView = (
  c: Context,
  props: ApprovalViewProps,
) => Response | string | Promise<Response | string>;

export const ApprovalViewKey = new InjectionKey<ApprovalView>('OAuthApprovalView');

/**
 * The hidden fields both decision forms must carry (CSRF token, the pending request's binding,
 * state, client). A replacement view renders these inside its Approve and Deny forms.
 */
export const ApprovalDecisionFields = (props: ApprovalViewProps) => (
  <>
    <CsrfField token={props.csrfToken} />
    <input type="hidden" name="auth_token" value={props.authToken} />
    <input type="hidden" name="state" value={props.state ?? ''} />
    <input type="hidden" name="client_id" value={props.client.id} />
  </>
);

/**
 * The client's name, and for a client known by its metadata document the host serving it: the
 * name is the document's claim, the host is what the user can check.
 */
export const ClientName = (props: {
  client: Pick<ApprovalViewProps['client'], 'name' | 'documentHost'> & { unverified?: boolean };
}) => (
  <>
    <strong class="client-name">{props.client.name}</strong>
    {props.client.documentHost ? (
      <>
        {' '}
        (from <strong class="client-host">{props.client.documentHost}</strong>)
      </>
    ) : null}
    {props.client.unverified ? (
      <>
        {' '}
        <span class="badge badge-warning client-unverified-badge">unverified</span>
      </>
    ) : null}
  </>
);

/**
 * The client's logo, and links to its privacy policy and terms of service, when it registered
 * them (RFC 7591 §2). They open in a new tab, without a referrer, so the request stays here.
 */
export const ClientPages = (props: { client: ApprovalViewProps['client'] }) => {
  const { logoUri, policyUri, tosUri, name } = props.client;
  const links = [
    policyUri ? { href: policyUri, text: 'Privacy policy', class: 'client-policy' } : null,
    tosUri ? { href: tosUri, text: 'Terms of service', class: 'client-tos' } : null,
  ].filter((link) => link !== null);
  return (
    <>
      {logoUri ? <img class="client-logo" src={logoUri} alt={`${name} logo`} width="64" height="64" /> : null}
      {links.length > 0 ? (
        <p class="client-pages">
          {links.map((link, index) => (
            <>
              {index > 0 ? ' · ' : null}
              <a class={link.class} href={link.href} target="_blank" rel="noopener noreferrer">
                {link.text}
              </a>
            </>
          ))}{' '}
          of {name}
        </p>
      ) : null}
    </>
  );
};

/** Who registered the client, and the host the user's browser goes to after the decision. */
export const ClientFacts = (props: { client: ApprovalViewProps['client']; class?: string }) => (
  <dl class={`dl client-facts ${props.class ?? ''}`.trim()}>
    <dt>Registered by</dt>
    <dd class="client-registered-by">{registeredBy(props.client.provenance)}</dd>
    <dt>Sends you back to</dt>
    <dd>
      <strong class="redirect-host">{props.client.redirectHost}</strong>
    </dd>
  </dl>
);

function registeredBy(provenance: ClientProvenance): string {
  switch (provenance.registeredBy) {
    case 'operator':
      return 'the operator of this service';
    case 'user':
      return `${provenance.owner}, a user of this service`;
    case 'itself':
      return provenance.documentHost
        ? `itself, by its metadata document at ${provenance.documentHost} (unverified)`
        : 'itself, by dynamic registration (unverified)';
  }
}

/** For a metadata-document client: a line saying that only its web address is verified. */
export const DocumentClientNote = (props: { client: ApprovalViewProps['client']; class?: string }) =>
  props.client.documentHost ? (
    <p class={`client-unverified ${props.class ?? ''}`.trim()}>
      This application described itself; only its web address, {props.client.documentHost}, is verified.
    </p>
  ) : null;

/** The requested scopes as the user reads them, each marked with its id. */
export const ScopeList = (props: { scopes: Scope[] }) =>
  props.scopes.length > 0 ? (
    <>
      <p>This application will be able to:</p>
      <ul class="scopes">
        {props.scopes.map((scope) => (
          <li data-scope={scope.id}>{scope.description}</li>
        ))}
      </ul>
    </>
  ) : null;

/** Approve (POST) and Deny (`_method=DELETE`) forms posting to `action`, each carrying `fields`. */
export const DecisionForms = (props: { action: string; fields: Child }) => (
  <div class="actions">
    <form method="post" action={props.action} class="inline">
      {props.fields}
      <button type="submit" class="btn btn-primary" name="decision" value="approve">
        Approve
      </button>
    </form>
    <form method="post" action={props.action} class="inline">
      <input type="hidden" name="_method" value="DELETE" />
      {props.fields}
      <button type="submit" class="btn btn-danger" name="decision" value="deny">
        Deny
      </button>
    </form>
  </div>
);

/** The default page: the client's name, each scope's description, Approve and Deny (Passport's layout). */
export const defaultApprovalView: ApprovalView = (c, props) =>
  renderPage(
    c,
    { title: 'Authorization request' },
    <section class="card approval">
      <h1>Authorization request</h1>
      <ClientPages client={props.client} />
      <p>
        <ClientName client={props.client} /> is requesting permission to access your account.
      </p>
      <DocumentClientNote client={props.client} />
      <ClientFacts client={props.client} />
      <ScopeList scopes={props.scopes} />
      <DecisionForms action={props.action} fields={<ApprovalDecisionFields {...props} />} />
    </section>,
  );
