import type { Application } from '../kernel/application.js';
import { Metrics } from '../observability/metrics.js';
import { TokenGranted } from './events.js';

/** With metrics on, counts the tokens the token endpoint grants, by grant type. */
export function countTokensGranted(app: Application): void {
  if (!app.container.has(Metrics)) return;
  const issued = app.container.make(Metrics).tokensIssued;
  app.events.listen(TokenGranted, (event) => {
    issued.inc({ grant: event.grantType });
  });
}
