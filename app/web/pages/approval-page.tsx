import {
  ApprovalDecisionFields,
  type ApprovalView,
  ClientFacts,
  ClientName,
  ClientPages,
  DocumentClientNote,
} from 'tollgate/oauth';
import { renderPage } from 'tollgate/views';

/**
 * The service's approval page (`oauthProvider({ approvalView })`): the client's name (and, for a
 * client known by its metadata document, the host serving it; "unverified" when it registered
 * itself), who registered it and where the answer goes, the account it asks for, each scope's
 * description, then Approve and Deny. A client's registered logo and its policy and terms links come first.
 */
export const approvalPage: ApprovalView = (c, props) =>
  renderPage(
    c,
    { title: `Authorize ${props.client.name}` },
    <section class="card narrow approval">
      <h1>Authorize application</h1>
      <ClientPages client={props.client} />
      <p>
        <ClientName client={props.client} /> wants to use your account <strong>{props.user.email}</strong>.
      </p>
      <DocumentClientNote client={props.client} class="small muted" />
      <ClientFacts client={props.client} class="small" />
      {props.scopes.length > 0 ? (
        <>
          <p class="mb-sm">It will be able to:</p>
          <ul class="scopes">
            {props.scopes.map((scope) => (
              <li data-scope={scope.id}>
                {scope.description} <code class="small muted">{scope.id}</code>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p class="muted">It asks for no particular permission: it will learn who you are.</p>
      )}
      <p class="small muted">You can revoke its access at any time under Dashboard → API tokens.</p>
      <div class="actions">
        <form method="post" action={props.action}>
          <ApprovalDecisionFields {...props} />
          <button type="submit" class="btn btn-primary" name="decision" value="approve">
            Approve
          </button>
        </form>
        <form method="post" action={props.action}>
          <input type="hidden" name="_method" value="DELETE" />
          <ApprovalDecisionFields {...props} />
          <button type="submit" class="btn" name="decision" value="deny">
            Deny
          </button>
        </form>
      </div>
    </section>,
  );
