import type { FC } from 'hono/jsx';
import type { Invoice, Subscription } from '../../billing/index.js';
import { CsrfField, Field } from '../../views/components.js';
import type { BillableOrganization } from './billable-organization.js';

export interface OrganizationBillingPageProps {
  organization: BillableOrganization;
  subscription: Subscription | undefined;
  invoices: Invoice[];
  plans: { id: string; name: string }[];
  csrfToken: string;
}

/** `GET /organizations/:id/billing`: the organization's plan, card, invoice details and invoices. */
export const OrganizationBillingPage: FC<OrganizationBillingPageProps> = (p) => {
  const { organization: org, subscription: sub } = p;
  const base = `/organizations/${org.id}/billing`;
  return (
    <div class="stack">
      <section class="card">
        <h1>Billing: {org.name}</h1>
        {sub?.valid() ? (
          <p>
            Subscribed to {sub.plan}
            {sub.quantity ? ` (${sub.quantity} seats)` : ''}
            {sub.onGracePeriod() ? `, cancelled: ends ${sub.ends_at}` : ''}.
          </p>
        ) : (
          <p>No subscription.</p>
        )}
        <p>
          Card: {org.card_last_four ? `${org.card_brand} ending in ${org.card_last_four}` : 'none on file'}
        </p>
      </section>
      {sub?.valid() && !sub.onGracePeriod() ? (
        <form method="post" action={`${base}/cancel`} class="card">
          <CsrfField token={p.csrfToken} />
          <button type="submit" class="btn">
            Cancel the subscription
          </button>
        </form>
      ) : (
        <form method="post" action={`${base}/subscribe`} class="card">
          <CsrfField token={p.csrfToken} />
          <label for="field-plan">Plan</label>
          <select id="field-plan" name="plan">
            {p.plans.map((plan) => (
              <option value={plan.id}>{plan.name}</option>
            ))}
          </select>
          <Field name="token" label="Card token" />
          <button type="submit" class="btn">
            Subscribe
          </button>
        </form>
      )}
      <form method="post" action={`${base}/details`} class="card">
        <h2>Invoices are addressed to</h2>
        <CsrfField token={p.csrfToken} />
        <Field name="billing_email" label="Billing e-mail" type="email" value={org.billing_email ?? ''} />
        <Field name="tax_id" label="Tax id" value={org.tax_id ?? ''} />
        <label for="field-billing_address">Address</label>
        <textarea id="field-billing_address" name="billing_address">
          {org.billing_address ?? ''}
        </textarea>
        <button type="submit" class="btn">
          Save
        </button>
      </form>
      <section class="card">
        <h2>Invoices</h2>
        <ul>
          {p.invoices.map((invoice) => (
            <li>
              <a href={`/organizations/${org.id}/invoices/${invoice.id}`}>
                {invoice.date()} — {invoice.total()}
              </a>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
};
