// How long this disk takes to make a small write durable (write + fsync, as a SQLite commit at
// synchronous=FULL does), printed beside the latency figures: an answer that waits for its commit
// cannot be faster than this, and on a shared disk its tail is what the open-loop p99 mostly shows.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function fsyncLatency(count = 200) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-bench-fsync-'));
  const file = path.join(dir, 'probe');
  const fd = fs.openSync(file, 'w');
  const page = Buffer.alloc(4096, 1);
  const times = [];
  try {
    for (let i = 0; i < count; i++) {
      const start = process.hrtime.bigint();
      fs.writeSync(fd, page, 0, page.length, (i % 16) * page.length);
      fs.fsyncSync(fd);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  } finally {
    fs.closeSync(fd);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { p50: at(0.5), p99: at(0.99), max: times[times.length - 1] };
}
