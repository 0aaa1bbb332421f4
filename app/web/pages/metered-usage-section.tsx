import type { FC } from 'hono/jsx';
import type { Invoice } from 'tollgate/billing';

export interface MeteredUsageProps {
  /** The meter the plan bills (`calls`) and its price per unit, formatted; null if the provider sets it. */
  meter: string;
  unitPrice: string | null;
  /** The provider's preview of the next invoice: the usage reported so far is on it. */
  upcoming: Invoice | undefined;
  /** The latest invoice issued: the usage of the last period as it was billed. */
  last: Invoice | undefined;
}

const Lines: FC<{ invoice: Invoice; title: string; marker: string }> = ({ invoice, title, marker }) => (
  <div class="table-wrap mt-lg">
    <table class="table" {...{ [marker]: true }}>
      <thead>
        <tr>
          <th>{title}</th>
          <th>Quantity</th>
          <th>Amount</th>
        </tr>
      </thead>
      <tbody>
        {invoice.lines().map((line) => (
          <tr>
            <td>{line.description}</td>
            <td>{line.quantity ?? ''}</td>
            <td>{line.amount}</td>
          </tr>
        ))}
        <tr>
          <td>
            <strong>Total</strong>
          </td>
          <td />
          <td>
            <strong>{invoice.total()}</strong>
          </td>
        </tr>
      </tbody>
    </table>
  </div>
);

/**
 * What the plan's metered price makes of the usage: the next invoice as the provider previews it
 * (usage reported so far, by `tollgate usage:report`) and the lines of the last invoice issued.
 */
export const MeteredUsageSection: FC<MeteredUsageProps> = ({ meter, unitPrice, upcoming, last }) => (
  <section class="card" data-metered-usage>
    <h2>Metered usage</h2>
    <p>
      Your plan bills <strong>{meter}</strong> by the unit
      {unitPrice ? (
        <>
          , at <strong>{unitPrice}</strong> each
        </>
      ) : null}
      , on top of its price. Usage reaches the provider in batches, so the next invoice shows the calls
      reported so far.
    </p>
    {upcoming ? (
      <Lines
        invoice={upcoming}
        title={`Next invoice, ${upcoming.date()} (projected)`}
        marker="data-upcoming-invoice"
      />
    ) : (
      <p class="muted">No invoice is coming: subscribe to a plan to be billed.</p>
    )}
    {last ? <Lines invoice={last} title={`Last invoice, ${last.date()}`} marker="data-last-invoice" /> : null}
  </section>
);
