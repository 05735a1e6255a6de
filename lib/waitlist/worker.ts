import 'server-only';
import { env } from '@/lib/config/env';
import { waitlistPass } from './offers';

/**
 * This process's waitlist worker: a pass (offers.ts) every WAITLIST_SCAN_SECONDS, and one at once
 * when something may have freed a slot (a release through the product, an offer declined) or an
 * entry joined. Passes never overlap within a process; across processes the guarded updates keep
 * them apart. One per process, on globalThis: the route handlers' copy of lib/ wakes the worker
 * the start (instrumentation) made.
 */
class WaitlistWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;

  start(intervalMs: number): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.wake(), intervalMs);
    this.timer.unref();
    this.wake();
  }

  wake(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = waitlistPass().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.again = false;
    await this.running;
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

export async function stopWaitlist(): Promise<void> {
  await holder.__waitlistWorker?.stop();
}
