// Watches the system clock during a test run and says when it steps (scripts/test-all.sh runs it in
// the background). Access tokens, leases and retry schedules are wall-clock times, as they must be
// across instances: a clock set forward or back by the machine mid-run (a virtual machine paused and
// its time corrected, say) makes a token issued a moment earlier look expired or not yet valid, and
// a spec fails for a reason no code of ours has. This line in the log says so where it happens.
//
// A step is a change in the wall clock's offset from the monotonic clock, which only counts time
// passing; ordinary drift correction slews by milliseconds and stays under the threshold.
const THRESHOLD_MS = 2_000;
const INTERVAL_MS = 1_000;

const offset = () => Date.now() - performance.now();
let baseline = offset();

setInterval(() => {
  const now = offset();
  const step = now - baseline;
  if (Math.abs(step) < THRESHOLD_MS) return;
  const seconds = (step / 1000).toFixed(1);
  console.log(
    `== the system clock stepped by ${step > 0 ? '+' : ''}${seconds} s at ${new Date().toISOString()} (tests running then may fail on times)`,
  );
  baseline = now;
}, INTERVAL_MS);
