/** The billing columns on `organizations` (added by the organization-billing migration). */
declare module '../tables.js' {
  interface OrganizationsTable {
    stripe_id: string | null;
    braintree_id: string | null;
    paypal_email: string | null;
    card_brand: string | null;
    card_last_four: string | null;
    trial_ends_at: string | null;
    /** Where the provider's customer e-mails go; the first subscriber's address until changed. */
    billing_email: string | null;
    /** VAT number or other tax id, printed on the invoices as given. */
    tax_id: string | null;
    /** One line per address line, newline-separated. */
    billing_address: string | null;
  }
}

export {};
