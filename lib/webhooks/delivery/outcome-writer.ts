import { outsideSpans } from '@/lib/observability/tracing';
import type { CircuitSettings } from './circuit';
import type { Candidate } from './fair-share';
import type { AttemptRecord, Recorded } from './store';

/**
 * Outcomes of attempts that end close together are committed in one transaction (group commit): on
 * SQLite with synchronous=FULL each commit is an fsync, and at hundreds of deliveries a second one
 * per outcome would cap throughput. One batch is written at a time: outcomes that end while it is
 * being committed wait for it and go together in the next, rather than each few in a commit of their
 * own (more fsyncs, each blocking the process on SQLite). Each attempt still waits for its own
 * outcome's commit.
 */
/** What the writer needs of the store: the worker's store (worker.ts) is one. */
type OutcomeStore = {
  record(owner: string, records: readonly AttemptRecord[], circuit: CircuitSettings): Promise<Recorded[]>;
};

export class OutcomeWriter {
  private queue: { record: AttemptRecord; resolve: (recorded: Recorded) => void; reject: (error: unknown) => void }[] = [];
  private scheduled = false;
  private flushing = false;

  constructor(
    private readonly owner: string,
    private readonly store: OutcomeStore,
    private readonly circuit: CircuitSettings,
    /** Outcomes that queued deliveries (an exhausted delivery's operational event): wake for them. */
    private readonly onQueued: (waiting: Candidate[]) => void,
  ) {}

  write(record: AttemptRecord): Promise<Recorded> {
    return new Promise((resolve, reject) => {
      this.queue.push({ record, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.flushing) return;
    this.scheduled = true;
    // The batch records several attempts: its statements belong to no one attempt's span.
    setImmediate(() => void outsideSpans(() => this.flush()));
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    this.flushing = true;
    const batch = this.queue.splice(0);
    try {
      const recorded = await this.store.record(
        this.owner,
        batch.map((entry) => entry.record),
        this.circuit,
      );
      batch.forEach((entry, index) => entry.resolve(recorded[index] ?? { written: false }));
      const queued = recorded.flatMap((result) => result.queued ?? []);
      if (queued.length > 0) this.onQueued(queued);
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    } finally {
      this.flushing = false;
      if (this.queue.length > 0) this.schedule();
    }
  }
}
