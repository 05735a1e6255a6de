// Open-loop load: requests leave on a fixed schedule whatever the server does, and each latency is
// counted from the request's scheduled time, not from when it was sent (coordinated omission:
// a stalled server would otherwise delay the very requests that should have measured the stall).
// The stream alternates a reserve of the next slot with the release of the oldest held one.
import http from 'node:http';

export async function openLoop({ url, token, rate, seconds, slots, body, path, offset }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const target = new URL(url);
  const latencies = [];
  const held = [];
  let late = 0;
  let next = 0;
  const total = Math.round(rate * seconds);
  const interval = 1000 / rate;
  const started = performance.now();
  const inFlight = [];

  const send = (payload, scheduled, onAnswer) =>
    new Promise((resolve) => {
      const request = http.request(
        {
          host: target.hostname,
          port: target.port,
          path,
          method: 'POST',
          agent,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () => {
            latencies.push(performance.now() - scheduled);
            onAnswer?.(response.statusCode, text);
            resolve();
          });
        },
      );
      request.on('error', () => resolve());
      request.end(payload);
    });

  for (let i = 0; i < total; i++) {
    const scheduled = started + i * interval;
    const wait = scheduled - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    else if (wait < -5) late++;
    if (i % 2 === 0 || held.length === 0) {
      const slot = slots[(offset * 1543 + next++) % slots.length];
      const person = 600_000 + (next % 5000);
      inFlight.push(
        send(body(slot, person, 'R'), scheduled, (status, text) => {
          if (status === 200) held.push({ slot, person, token: JSON.parse(text).TOKEN_RESERVA_P });
        }),
      );
    } else {
      const hold = held.shift();
      inFlight.push(send(body(hold.slot, hold.person, 'CR', hold.token), scheduled));
    }
  }
  await Promise.all(inFlight);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
  return { sent: total, p50: pct(0.5), p99: pct(0.99), max: latencies.at(-1), late };
}
