import type { TollgateConfig } from '../../core/config.js';
import type { ApiKeyEnvironment } from './key-format.js';

/** `oauth.apiKeys.environment`, or by `app.env`: `live` in production, `test` elsewhere. */
export function apiKeyEnvironment(config: TollgateConfig): ApiKeyEnvironment {
  return config.oauth.apiKeys.environment || (config.app.env === 'production' ? 'live' : 'test');
}
