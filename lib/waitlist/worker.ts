import 'server-only';
import { env } from '@/lib/config/env';
import { leaseMs } from './backend-calls';
import { waitlistPass } from './offers';

/**
 * This process's waitlist worker: a pass (offers.ts) every WAITLIST_SCAN_SECONDS, and one at once
 * when something may have freed a slot (a release through the product, an offer declined) or an
 * entry joined. Passes never overlap within a process; across processes the guarded updates keep
 * them apart; a deploy's SIGTERM drains it (stop). One per process, on globalThis: the route handlers' copy of lib/ wakes the worker
 * the start (instrumentation) made.
 */
class WaitlistWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  /** Aborted by stop(): the pass in progress finishes the offer it is making and starts no other. */
  private stopping = new AbortController();

  start(intervalMs: number): void {
    if (this.timer) return;
    if (this.stopping.signal.aborted) this.stopping = new AbortController();
    this.timer = setInterval(() => this.wake(), intervalMs);
    this.timer.unref();
    this.wake();
  }

  wake(): void {
    if (this.stopping.signal.aborted) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = waitlistPass(this.stopping.signal).finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /**
   * Starts no pass any more and waits for the one in progress, which completes the offer it is
   * making (its back-end call is bounded) and makes no other. Answers whether it ended within
   * `deadlineMs`; one that did not leaves its claim to the lease (offers.ts), as a killed process does.
   */
  async stop(deadlineMs: number): Promise<{ drained: boolean }> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.again = false;
    this.stopping.abort();
    if (!this.running) return { drained: true };
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), deadlineMs)));
    const drained = await Promise.race([this.running.then(() => true), late]).finally(() => clearTimeout(timer));
    return { drained };
  }
}

const holder = globalThis as typeof globalThis & { __waitlistWorker?: WaitlistWorker };

export function startWaitlist(): void {
  holder.__waitlistWorker ??= new WaitlistWorker();
  holder.__waitlistWorker.start(env().WAITLIST_SCAN_SECONDS * 1000);
}

/** A pass soon, on this process; other processes find the change at their next pass. */
export function wakeWaitlist(): void {
  holder.__waitlistWorker?.wake();
}

/** A deploy's drain (lib/shutdown.ts): the offer in progress completes within a back-end call's lease, or is left to it. */
export async function stopWaitlist(): Promise<{ drained: boolean }> {
  return (await holder.__waitlistWorker?.stop(leaseMs())) ?? { drained: true };
}
