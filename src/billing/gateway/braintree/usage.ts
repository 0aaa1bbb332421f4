import type { CurrencyUnit } from '../../money.js';
import type { UsageReport } from '../payment-gateway.js';
import { billsNext } from './map.js';
import type { BraintreeSubscriptions } from './subscriptions.js';

/**
 * Usage as an add-on on the subscription's next bill (Braintree has no meters): its quantity is the
 * period's running total, for one billing cycle. The next period reuses the spent add-on with a
 * fresh quantity and one more cycle. Setting a total is idempotent by nature; a report never
 * lowers the quantity within a period, so a late, older report cannot undo a newer one.
 */
export class BraintreeUsage {
  constructor(
    private readonly subscriptions: BraintreeSubscriptions,
    private readonly unit: CurrencyUnit,
  ) {}

  async report(report: UsageReport): Promise<void> {
    if (report.total <= 0) return;
    const sub = await this.subscriptions.find(report.subscriptionId);
    const amount = report.unitAmount === undefined ? {} : { amount: this.unit.major(report.unitAmount) };
    const existing = (sub.addOns ?? []).find((m) => m.id === report.price);
    if (!existing) {
      await this.subscriptions.update(sub.id, {
        addOns: {
          add: [
            { inheritedFromId: report.price, quantity: report.total, numberOfBillingCycles: 1, ...amount },
          ],
        },
      });
      return;
    }
    const live = billsNext(existing);
    const quantity = live ? Math.max(existing.quantity ?? 0, report.total) : report.total;
    if (live && quantity === existing.quantity) return;
    const cycles = live ? existing.numberOfBillingCycles : (existing.currentBillingCycle ?? 0) + 1;
    await this.subscriptions.update(sub.id, {
      addOns: {
        update: [
          {
            existingId: existing.id,
            quantity,
            ...(existing.neverExpires ? {} : { neverExpires: false, numberOfBillingCycles: cycles }),
            ...amount,
          },
        ],
      },
    });
  }
}
