import type { Kysely } from 'kysely';
import type { BillableStores } from '../../billing/index.js';
import type { Database } from '../../database/types.js';
import { OrganizationError } from '../errors.js';
import type { Organizations } from '../organizations.js';
import type { BillableOrganization } from './billable-organization.js';

export interface OrganizationBillingDeps {
  db: Kysely<Database>;
  organizations: Organizations;
  stores: BillableStores;
}

export interface BillingDetails {
  billing_email: string;
  tax_id: string;
  billing_address: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The organization as a billing customer, for the members whose role has `billing.manage` (owner
 * and billing): anyone else gets the 403 (a non-member the 404) of `Organizations.authorize`.
 */
export class OrganizationBilling {
  constructor(private readonly deps: OrganizationBillingDeps) {}

  /** The organization to bill, if `userId` may manage its billing. */
  async forManager(userId: number, organizationId: number): Promise<BillableOrganization> {
    await this.deps.organizations.authorize(userId, organizationId, 'billing.manage', 'manage its billing');
    return this.model(organizationId);
  }

  async model(organizationId: number): Promise<BillableOrganization> {
    const found = await this.deps.stores.find({ type: 'organization', id: organizationId });
    if (!found) throw OrganizationError.notFound();
    return found as BillableOrganization;
  }

  /** Who the invoices are addressed to; the e-mail also goes to the provider's customer. */
  async updateDetails(organization: BillableOrganization, details: BillingDetails): Promise<void> {
    const email = details.billing_email.trim().toLowerCase();
    if (email !== '' && (!EMAIL.test(email) || email.length > 255))
      throw new OrganizationError(422, 'The billing e-mail is not an e-mail address.');
    const taxId = details.tax_id.trim();
    if (taxId.length > 64) throw new OrganizationError(422, 'The tax id is at most 64 characters.');
    const address = details.billing_address.trim();
    if (address.length > 500) throw new OrganizationError(422, 'The address is at most 500 characters.');
    const values = { billing_email: email || null, tax_id: taxId || null, billing_address: address || null };
    await this.deps.db
      .updateTable('organizations')
      .set({ ...values, updated_at: new Date().toISOString() })
      .where('id', '=', organization.id)
      .execute();
    Object.assign(organization, values);
  }

  /**
   * Before the organization is deleted: every subscription of it is cancelled now at the provider.
   * A refusal (the provider could not be reached) keeps the organization, so nothing bills on.
   */
  async cancelBeforeDeletion(organizationId: number): Promise<string | undefined> {
    const organization = await this.deps.stores.find({ type: 'organization', id: organizationId });
    if (!organization) return undefined;
    try {
      for (const sub of await (organization as BillableOrganization).subscriptions()) {
        if (!sub.ended()) await sub.cancelNow();
      }
      return undefined;
    } catch {
      return 'Its subscription could not be cancelled at the payment provider just now: try again.';
    }
  }
}
