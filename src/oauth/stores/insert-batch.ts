/** The real `setImmediate`, taken before a test's fake timers could replace it. */
const later = globalThis.setImmediate;

interface Pending<Row> {
  row: Row;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit: rows added in the same turn of the event loop are written together, as one
 * multi-row INSERT (one statement, so one commit), and each caller's promise settles when that
 * write has. Under load the token endpoint receives many requests per turn, and on SQLite a commit
 * (WAL frames for the table and each index page) costs more than the row; PostgreSQL saves round
 * trips and fsyncs. A failed batch is retried row by row, so one bad row fails alone.
 */
export class InsertBatch<Row> {
  #pending: Pending<Row>[] = [];
  #scheduled = false;

  constructor(
    private readonly write: (rows: readonly Row[]) => Promise<void>,
    private readonly maxRows = 64,
  ) {}

  add(row: Row): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#pending.push({ row, resolve, reject });
      if (this.#pending.length >= this.maxRows) void this.#flush();
      else if (!this.#scheduled) {
        this.#scheduled = true;
        later(() => void this.#flush());
      }
    });
  }

  async #flush(): Promise<void> {
    this.#scheduled = false;
    const batch = this.#pending;
    if (batch.length === 0) return;
    this.#pending = [];
    try {
      await this.write(batch.map((entry) => entry.row));
      for (const entry of batch) entry.resolve();
    } catch (err) {
      if (batch.length === 1) {
        batch[0]!.reject(err);
        return;
      }
      for (const entry of batch) this.write([entry.row]).then(entry.resolve, entry.reject);
    }
  }
}
