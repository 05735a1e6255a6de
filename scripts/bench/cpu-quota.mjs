// A CPU quota for one bench process, as a container's CPU limit would set it: the Linux cgroup CPU
// controller (cgroup v1 `cpu.cfs_quota_us`, or v2 `cpu.max`), in a group of the bench's own that is
// removed when the process ends. Needs root and a writable cgroup CPU controller; `available()`
// says whether this machine has one, so the bench can say why it skipped the capped measurement.
import fs from 'node:fs';
import path from 'node:path';

const PERIOD_US = 100_000;
const V1_ROOT = '/sys/fs/cgroup/cpu';
const V2_ROOT = '/sys/fs/cgroup';

function hierarchy() {
  if (fs.existsSync(path.join(V1_ROOT, 'cpu.cfs_quota_us'))) return 'v1';
  try {
    if (fs.readFileSync(path.join(V2_ROOT, 'cgroup.subtree_control'), 'utf8').split(/\s+/).includes('cpu')) return 'v2';
  } catch {
    // no unified hierarchy here
  }
  return undefined;
}

/** Whether a quota can be set here: a CPU controller that this user may create groups in. */
export function cpuQuotaAvailable() {
  const kind = hierarchy();
  if (!kind) return false;
  try {
    fs.accessSync(kind === 'v1' ? V1_ROOT : V2_ROOT, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Puts process `pid` (and the processes it starts afterwards) under a quota of `cpus` CPUs.
 * Answers a function that removes the group; call it once the process has exited.
 */
export function limitCpu(pid, cpus, label) {
  const kind = hierarchy();
  const dir = path.join(kind === 'v1' ? V1_ROOT : V2_ROOT, `ic-bench-${process.pid}-${label}`);
  fs.mkdirSync(dir, { recursive: true });
  const quota = String(Math.round(cpus * PERIOD_US));
  if (kind === 'v1') {
    fs.writeFileSync(path.join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
    fs.writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), quota);
  } else {
    fs.writeFileSync(path.join(dir, 'cpu.max'), `${quota} ${PERIOD_US}`);
  }
  fs.writeFileSync(path.join(dir, 'cgroup.procs'), String(pid));
  return () => {
    try {
      fs.rmdirSync(dir);
    } catch {
      // still has a process (then the kernel keeps it until that one ends) or already gone
    }
  };
}
