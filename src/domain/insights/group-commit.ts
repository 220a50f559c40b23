/*
 * Group commit for ingestion: batches that become ready while earlier ones are being written wait, and
 * go together in the next transaction, with one BEGIN, one COPY, one COMMIT and one WAL flush for all of
 * them. Each request still answers only once its own batch is committed. On this machine's PostgreSQL a
 * transaction's fixed cost (its round trips, the COPY's set-up and the commit's flush; figures in
 * docs/performance.md) was more than storing a small batch; grouped, it is paid once per
 * group. A group that fails is written again batch by batch, so that one batch's failure is its own.
 */

export type GroupCommitOptions<Item> = {
  /** Transactions in flight at once: while they run, the next group gathers. */
  writers: number;
  /** A group stops growing at this size (`sizeOf` its items): a transaction's length stays bounded. */
  maxSize: number;
  sizeOf: (item: Item) => number;
};

type Waiting<Item> = { item: Item; resolve: () => void; reject: (error: unknown) => void };

export class GroupCommit<Item> {
  private readonly queue: Waiting<Item>[] = [];
  /** The groups being written. */
  private readonly writing = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly write: (items: Item[]) => Promise<void>,
    private readonly options: GroupCommitOptions<Item>,
  ) {}

  /** Resolves once `item` is committed (with others, or alone). */
  commit(item: Item): Promise<void> {
    if (this.closed) return Promise.reject(new Error('insights storage is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.drain();
    });
  }

  private drain(): void {
    while (this.writing.size < this.options.writers && this.queue.length) {
      const written: Promise<void> = this.writeGroup(this.nextGroup()).finally(() => {
        this.writing.delete(written);
        this.drain();
      });
      this.writing.add(written);
    }
  }

  /** Takes no further item and resolves once every item given is written (or has failed). */
  async close(): Promise<void> {
    this.closed = true;
    while (this.writing.size) await Promise.all(this.writing);
  }

  /** The waiting items in arrival order, up to the size limit (always at least one). */
  private nextGroup(): Waiting<Item>[] {
    let size = this.options.sizeOf(this.queue[0].item);
    let count = 1;
    while (count < this.queue.length) {
      const next = this.options.sizeOf(this.queue[count].item);
      if (size + next > this.options.maxSize) break;
      size += next;
      count++;
    }
    return this.queue.splice(0, count);
  }

  private async writeGroup(group: Waiting<Item>[]): Promise<void> {
    try {
      await this.write(group.map((waiting) => waiting.item));
      for (const waiting of group) waiting.resolve();
      return;
    } catch (error) {
      if (group.length === 1) {
        group[0].reject(error);
        return;
      }
    }
    for (const waiting of group) {
      try {
        await this.write([waiting.item]);
        waiting.resolve();
      } catch (error) {
        waiting.reject(error);
      }
    }
  }
}
