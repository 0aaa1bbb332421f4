import { Counter } from 'prom-client';
import type { Application } from '../kernel/application.js';
import { Metrics } from '../observability/metrics.js';
import { TokenGranted } from './events.js';
import { TokenGuard } from './guard/token-guard.js';

/**
 * With metrics on, counts the tokens the token endpoint grants, by grant type, and the `api`
 * guard's credential checks by outcome (read from the guard when scraped: the hot path only adds one).
 */
export function countTokensGranted(app: Application): void {
  if (!app.container.has(Metrics)) return;
  const metrics = app.container.make(Metrics);
  app.events.listen(TokenGranted, (event) => {
    metrics.tokensIssued.inc({ grant: event.grantType });
  });
  const { container } = app;
  new Counter({
    name: 'tollgate_oauth_token_verifications_total',
    help: 'Credentials the api guard checked, by outcome (valid, expired, revoked, invalid, …).',
    labelNames: ['outcome'] as const,
    registers: [metrics.registry],
    collect() {
      this.reset();
      if (!container.has(TokenGuard)) return;
      for (const [outcome, count] of container.make(TokenGuard).outcomes.counts())
        if (count) this.inc({ outcome }, count);
    },
  });
}
