// The inspector's CPU profiler, driven over its WebSocket, and a profile's top functions by self
// time: shared by profile.mjs and deliveries.mjs's `--only cpu --profile`.

/** The inspector's Profiler over its WebSocket (Chrome DevTools Protocol). */
export async function inspector(port) {
  const [{ webSocketDebuggerUrl }] = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const socket = new WebSocket(webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  let id = 0;
  const pending = new Map();
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    pending.get(message.id)?.(message);
    pending.delete(message.id);
  };
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const messageId = ++id;
      pending.set(messageId, (message) => (message.error ? reject(new Error(message.error.message)) : resolve(message.result)));
      socket.send(JSON.stringify({ id: messageId, method, params }));
    });
  return { send, close: () => socket.close() };
}

/** Self time per function (name, file, line) and per place (package, node internals, the app), in % of busy samples. */
export function summarize(profile, top, root) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  // The first sample's delta is the time from Profiler.start to it, not time spent in its function.
  for (let i = 1; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const byFunction = new Map();
  const byPlace = new Map();
  let busy = 0;
  let idle = 0;
  for (const [id, micros] of self) {
    const { functionName, url, lineNumber } = nodes.get(id).callFrame;
    if (functionName === '(idle)') {
      idle += micros;
      continue;
    }
    busy += micros;
    const file = url.replace(/^file:\/\//, '').replace(`${root}/`, '');
    const name = `${functionName || '(anonymous)'}  ${file ? `${file}:${lineNumber + 1}` : ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
    const place =
      /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ??
      (file.startsWith('node:') ? 'node internals' : file ? file.split('/').slice(0, 2).join('/') : functionName);
    byPlace.set(place, (byPlace.get(place) ?? 0) + micros);
  }
  const pct = (micros) => `${((100 * micros) / busy).toFixed(1).padStart(5)}%`;
  console.log(`busy ${(busy / 1e6).toFixed(2)} s, idle ${(idle / 1e6).toFixed(2)} s of the profiled window`);
  console.log(`\ntop ${top} functions by self time (% of busy time):`);
  for (const [name, micros] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(micros)}  ${name}`);
  console.log('\nself time by place:');
  for (const [place, micros] of [...byPlace].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${pct(micros)}  ${place}`);
}
