#!/usr/bin/env node
// Reservation throughput and latency against a running server (default: the demo on :3000).
// Reserves and then releases free slots with C requests in flight; prints figures, asserts nothing.
//   node scripts/bench/reservations.mjs [--url http://localhost:3000] [--requests 400] [--concurrency 8]
//     [--client portal-parceiro] [--secret segredo-demo-portal-2026]
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://localhost:3000' },
    requests: { type: 'string', default: '400' },
    concurrency: { type: 'string', default: '8' },
    client: { type: 'string', default: 'portal-parceiro' },
    secret: { type: 'string', default: 'segredo-demo-portal-2026' },
  },
});
const base = values.url;
const total = Number(values.requests);
const concurrency = Number(values.concurrency);

const tokenResponse = await fetch(`${base}/api/v1/auth/token`, {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ grant_type: 'client_credentials', client_id: values.client, client_secret: values.secret }),
});
if (!tokenResponse.ok) throw new Error(`token: HTTP ${tokenResponse.status}`);
const auth = `Bearer ${(await tokenResponse.json()).access_token}`;

const slots = await (await fetch(`${base}/api/v1/agendamentos/slots-livres?limite=500`, { headers: { authorization: auth } })).json();
const procedures = [50102, 50103]; // demo procedures that need no laterality
const pairs = Math.min(Math.floor(total / 2), slots.length);
if (pairs === 0) throw new Error('no free slots to reserve');

const latencies = { R: [], CR: [] };
const codes = {};
async function call(body) {
  const started = performance.now();
  const response = await fetch(`${base}/api/v1/agendamentos/slots-livres/reservar`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  latencies[body.ieOpcao].push(performance.now() - started);
  codes[answer.CODIGO_P ?? response.status] = (codes[answer.CODIGO_P ?? response.status] ?? 0) + 1;
  return answer;
}

let next = 0;
async function worker() {
  while (next < pairs) {
    const i = next++;
    const slot = slots[i];
    const body = {
      nrSeqAgenda: slot.NR_SEQ_AGENDA,
      nrSeqProcInterno: procedures[i % 2],
      nrMinDuracao: slot.NR_MIN_DURACAO,
      ieOpcao: 'R',
      cdPessoaFisica: 800_000 + i,
      cdConvenio: 12,
      cdCategoria: 1,
      cdPlano: 3,
      cdUsuarioConvenio: '0012345678901',
      nmUsuario: 'bench',
    };
    const reserved = await call(body);
    if (reserved.CODIGO_P === '0') await call({ ...body, ieOpcao: 'CR', tokenReservaCanc: reserved.TOKEN_RESERVA_P });
  }
}

const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, worker));
const seconds = (performance.now() - started) / 1000;

const pct = (list, p) => list.sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor((p / 100) * list.length))]?.toFixed(1);
const count = latencies.R.length + latencies.CR.length;
console.log(`requests: ${count} in ${seconds.toFixed(2)} s → ${(count / seconds).toFixed(1)} req/s, concurrency ${concurrency}`);
for (const option of ['R', 'CR']) {
  const list = latencies[option];
  console.log(
    `${option.padEnd(2)} n=${list.length} p50=${pct(list, 50)} ms p95=${pct(list, 95)} ms p99=${pct(list, 99)} ms max=${pct(list, 100)} ms`,
  );
}
console.log('CODIGO_P counts:', JSON.stringify(codes));
