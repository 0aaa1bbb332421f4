import { formatMoney } from '../../billing/money.js';
import type { TollgateConfig } from '../../core/config.js';
import type { Container } from '../../core/container.js';
import { ConfigKey } from '../../core/keys.js';

/** The plan's display name (its id when billing does not know it). */
export function planName(container: Container, plan: string): string {
  const config = container.make(ConfigKey) as TollgateConfig;
  return config.billing?.plans.find((p) => p.id === plan)?.name ?? plan;
}

/** An amount in minor units, as the billing pages show it. */
export function money(container: Container, minor: number, currency: string): string {
  const config = container.make(ConfigKey) as TollgateConfig;
  const symbol = currency.toLowerCase() === config.billing?.currency ? config.billing.currencySymbol : '';
  return formatMoney(minor, currency, symbol || `${currency.toUpperCase()} `);
}

export function accountsPaths(container: Container): TollgateConfig['accounts']['notifications'] {
  return (container.make(ConfigKey) as TollgateConfig).accounts.notifications;
}

/** "28 November 2026". */
export function day(iso: string): string {
  return new Date(iso).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}
