import { UpstreamClient } from './upstream-client.js';
import type { UpstreamConfig } from './upstream-config.js';
import { resolveUpstreamProvider } from './upstream-presets.js';

/** The configured upstream providers, by id, each with its client. */
export class UpstreamProviders {
  readonly #clients = new Map<string, UpstreamClient>();

  constructor(
    config: UpstreamConfig,
    /** The application's public URL: callbacks are `{appUrl}/login/{id}/callback`. */
    private readonly appUrl: string,
  ) {
    for (const [id, settings] of Object.entries(config.providers))
      this.#clients.set(id, new UpstreamClient(resolveUpstreamProvider(id, settings)));
  }

  get(id: string): UpstreamClient | undefined {
    return this.#clients.get(id);
  }

  list(): Array<{ id: string; label: string }> {
    return [...this.#clients.values()].map(({ provider }) => ({ id: provider.id, label: provider.label }));
  }

  get size(): number {
    return this.#clients.size;
  }

  /** The redirect URI registered at the provider. */
  callbackUrl(id: string): string {
    return new URL(`/login/${id}/callback`, this.appUrl).href;
  }
}
