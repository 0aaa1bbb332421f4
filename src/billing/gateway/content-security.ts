import type { SecurityHeaders } from '../../http/security-headers.js';
import type { CardFormSources } from './edition.js';

/** Lets pages load the configured edition's card form, and nothing else from elsewhere. */
export function allowCardFormSources(headers: SecurityHeaders, sources: CardFormSources): void {
  for (const [directive, allowed] of Object.entries(sources)) headers.allow(directive, ...allowed);
}
