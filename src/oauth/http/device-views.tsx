import type { Context } from 'hono';
import { CsrfField, Field } from '../../views/components.js';
import { renderPage } from '../../views/render.js';
import type { Scope } from '../scopes.js';
import { DecisionForms, ScopeList } from './approval-view.js';

/** Where the verification page's forms post. */
export const DEVICE_PAGE = '/oauth/device';
export const DEVICE_DECISION = '/oauth/device/authorize';

export interface DeviceEntryProps {
  csrfToken: string;
  /** Pre-filled from `verification_uri_complete`, or what the user typed. */
  userCode: string;
  error?: string | undefined;
  status?: number;
}

/** Step one: type the code the device shows. */
export const deviceEntryView = (c: Context, props: DeviceEntryProps) =>
  renderPage(
    c,
    { title: 'Connect a device', status: props.status },
    <section class="card approval narrow device-entry">
      <h1>Connect a device</h1>
      <p>Enter the code shown on your device.</p>
      <form method="post" action={DEVICE_PAGE} novalidate>
        <CsrfField token={props.csrfToken} />
        <Field
          name="user_code"
          label="Code"
          value={props.userCode}
          errors={props.error ? [props.error] : undefined}
          autocomplete="off"
          hint="Eight letters, like WDJB-MJHT. Upper or lower case, with or without the dash."
          required
          autofocus
        />
        <div class="actions">
          <button type="submit" class="btn btn-primary">
            Continue
          </button>
        </div>
      </form>
    </section>,
  );

export interface DeviceConfirmationProps {
  client: { id: string; name: string };
  scopes: Scope[];
  /** As the device shows it (`WDJB-MJHT`): the user checks they match (RFC 8628 §5.4). */
  userCode: string;
  csrfToken: string;
  authToken: string;
}

/** The decision forms' hidden fields: the CSRF token and the binding to this request. */
const DecisionFields = (props: DeviceConfirmationProps) => (
  <>
    <CsrfField token={props.csrfToken} />
    <input type="hidden" name="auth_token" value={props.authToken} />
  </>
);

/** Step two: the client and scopes, Approve or Deny (the approval page's layout). */
export const deviceConfirmationView = (c: Context, props: DeviceConfirmationProps) =>
  renderPage(
    c,
    { title: 'Connect a device' },
    <section class="card approval narrow device-confirmation">
      <h1>Connect a device</h1>
      <p>
        <strong class="client-name">{props.client.name}</strong> is requesting permission to access your
        account from the device showing the code <code class="user-code">{props.userCode}</code>.
      </p>
      <p class="muted">Only approve if you started this on a device you have in front of you.</p>
      <ScopeList scopes={props.scopes} />
      <DecisionForms action={DEVICE_DECISION} fields={<DecisionFields {...props} />} />
    </section>,
  );

/** After the decision, or when it cannot be taken any more. */
export const deviceDoneView = (c: Context, props: { title: string; message: string; status?: number }) =>
  renderPage(
    c,
    { title: props.title, status: props.status },
    <section class="card narrow device-done">
      <h1>{props.title}</h1>
      <p>{props.message}</p>
    </section>,
  );
