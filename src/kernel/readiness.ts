import type { Logger } from '../core/logger.js';

/** One thing the service needs before it can take traffic; rejects (or throws) when it is not there. */
export type ReadinessCheck = () => Promise<void>;

export interface ReadinessReport {
  ready: boolean;
  /** Each check by name: `ok`, `failed` or `timeout`. */
  checks: Record<string, 'ok' | 'failed' | 'timeout'>;
}

/**
 * What `/ready` asks: the application adds the database and its migrations (and Redis when
 * configured), modules add theirs (`oauth`: the signing keys). Checks run together, each bounded
 * by the timeout; why one failed is logged, never answered.
 */
export class Readiness {
  readonly #checks = new Map<string, ReadinessCheck>();
  #draining = false;

  constructor(private readonly logger: Logger) {}

  add(name: string, check: ReadinessCheck): this {
    this.#checks.set(name, check);
    return this;
  }

  /** The process is shutting down: not ready from now on, whatever the checks say (`draining: failed`). */
  drain(): void {
    this.#draining = true;
  }

  get names(): string[] {
    return [...this.#checks.keys()];
  }

  async report(timeoutMs = 2_000): Promise<ReadinessReport> {
    const entries = await Promise.all(
      [...this.#checks].map(
        async ([name, check]) => [name, await this.#run(name, check, timeoutMs)] as const,
      ),
    );
    const checks: ReadinessReport['checks'] = Object.fromEntries(entries);
    if (this.#draining) checks.draining = 'failed';
    return { ready: !this.#draining && entries.every(([, outcome]) => outcome === 'ok'), checks };
  }

  async #run(name: string, check: ReadinessCheck, timeoutMs: number): Promise<'ok' | 'failed' | 'timeout'> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    try {
      const outcome = await Promise.race([check().then(() => 'ok' as const), late]);
      if (outcome === 'timeout') this.logger.warn({ check: name, timeoutMs }, 'readiness check timed out');
      return outcome;
    } catch (err) {
      this.logger.warn({ check: name, err: (err as Error).message }, 'readiness check failed');
      return 'failed';
    } finally {
      clearTimeout(timer);
    }
  }
}
