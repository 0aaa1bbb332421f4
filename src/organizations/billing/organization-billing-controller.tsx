import type { Context } from 'hono';
import { csrfToken, currentUser } from '../../auth/context.js';
import type { TollgateConfig } from '../../core/config.js';
import { HttpError } from '../../core/errors.js';
import { ConfigKey } from '../../core/keys.js';
import { wantsJson } from '../../http/respond.js';
import { renderPage } from '../../views/render.js';
import { OrganizationBilling } from './organization-billing.js';
import { OrganizationBillingPage } from './organization-billing-page.js';
import { SeatSync } from './seat-sync.js';

const SUBSCRIPTION = 'default';

function organizationId(c: Context): number {
  const value = c.req.param('organization') ?? '';
  if (!/^[1-9][0-9]{0,9}$/.test(value)) throw new HttpError(404, 'Not Found');
  return Number(value);
}

async function fields(c: Context): Promise<Record<string, string>> {
  const body = await c.req.parseBody();
  return Object.fromEntries(
    Object.entries(body).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
}

/**
 * `/organizations/{id}/billing` and the organization's invoices: for members whose role has
 * `billing.manage` (owner, billing); any other member gets 403, a non-member 404.
 */
export class OrganizationBillingController {
  static inject = [OrganizationBilling, SeatSync, ConfigKey] as const;

  constructor(
    private readonly billing: OrganizationBilling,
    private readonly seats: SeatSync,
    private readonly config: TollgateConfig,
  ) {}

  async show(c: Context): Promise<Response> {
    const organization = await this.billing.forManager(currentUser(c)!.id, organizationId(c));
    const subscription = await organization.subscription(SUBSCRIPTION);
    const invoices = organization.hasBillingId() ? await organization.invoices() : [];
    if (wantsJson(c))
      return c.json({
        subscription: subscription?.valid() ? subscription.toJSON() : null,
        card: organization.card_last_four
          ? { brand: organization.card_brand, last_four: organization.card_last_four }
          : null,
        invoices: invoices.map((invoice) => invoice.toJSON()),
      });
    return renderPage(
      c,
      { title: `Billing: ${organization.name}` },
      <OrganizationBillingPage
        organization={organization}
        subscription={subscription}
        invoices={invoices}
        plans={this.config.billing.plans}
        csrfToken={csrfToken(c)}
      />,
    );
  }

  /** Subscribes the organization (`plan`, `token`); a per-seat plan bills one seat per member. */
  subscribe(c: Context): Promise<Response> {
    return this.act(c, async (organization) => {
      const { plan = '', token = '' } = await fields(c);
      if (!this.config.billing.plans.some((p) => p.id === plan))
        throw new HttpError(422, 'Choose one of the plans.');
      if (!organization.billing_email)
        await this.billing.updateDetails(organization, {
          billing_email: currentUser(c)!.email,
          tax_id: organization.tax_id ?? '',
          billing_address: organization.billing_address ?? '',
        });
      await organization.newSubscription(SUBSCRIPTION, plan).create(token || null);
      if (this.seats.isSeatPlan(plan)) await this.seats.sync(organization.id);
      return `${organization.name} is subscribed.`;
    });
  }

  card(c: Context): Promise<Response> {
    return this.act(c, async (organization) => {
      const { token = '' } = await fields(c);
      if (!token) throw new HttpError(422, 'A card is needed.');
      await organization.updateCard(token);
      return 'The card is updated.';
    });
  }

  details(c: Context): Promise<Response> {
    return this.act(c, async (organization) => {
      const { billing_email = '', tax_id = '', billing_address = '' } = await fields(c);
      await this.billing.updateDetails(organization, { billing_email, tax_id, billing_address });
      return 'The invoice details are saved.';
    });
  }

  cancel(c: Context): Promise<Response> {
    return this.act(c, async (organization) => {
      const subscription = await organization.subscription(SUBSCRIPTION);
      if (!subscription?.valid()) throw new HttpError(409, 'There is no subscription to cancel.');
      await subscription.cancel();
      return `The subscription is cancelled; it ends ${subscription.ends_at}.`;
    });
  }

  /** The invoice PDF, addressed to the organization; another customer's invoice is a 404. */
  async invoice(c: Context): Promise<Response> {
    const organization = await this.billing.forManager(currentUser(c)!.id, organizationId(c));
    const id = c.req.param('invoice') ?? '';
    if (!organization.hasBillingId() || !(await organization.findInvoice(id)))
      throw new HttpError(404, 'Not Found');
    return organization.downloadInvoice(id);
  }

  /** Authorizes, runs the change, answers JSON `{ message }` or back to the page with it flashed. */
  private async act(
    c: Context,
    change: (organization: Awaited<ReturnType<OrganizationBilling['forManager']>>) => Promise<string>,
  ): Promise<Response> {
    const id = organizationId(c);
    const page = `/organizations/${id}/billing`;
    const organization = await this.billing.forManager(currentUser(c)!.id, id);
    try {
      const message = await change(organization);
      if (wantsJson(c)) return c.json({ message });
      c.get('session')?.flash('status', message);
      return c.redirect(page, 303);
    } catch (err) {
      if (!(err instanceof HttpError) || err.status === 404 || err.status >= 500 || wantsJson(c)) throw err;
      c.get('session')?.flash('error', err.message);
      return c.redirect(page, 303);
    }
  }
}
