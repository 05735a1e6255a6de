import { expect, test } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { bearer, FLAGS_OFF, tokenFor } from '../support/api';
import { privateDatabase } from '../support/databases';
import { Receiver } from '../support/receiver';
import { newDataDir, startServer } from '../support/server';
import { PRODUCER, TENANT_A, WEBHOOK_IDS } from '../support/test-seed';

/**
 * Prompt recovery (issue 45), through a real receiver and the default retry schedule and circuit
 * settings: a receiver down for 60 s under a steady stream of events. Its circuit opens, probes on
 * its own cadence (WEBHOOK_CIRCUIT_PROBE_SECONDS) whatever the backoff of the deliveries that
 * failed, and once a probe gets through every delivery waiting behind it is due at once: everything
 * published before the return arrives within 15 s of it, nothing is lost and nothing is taken twice.
 */
const relaxed = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', MAX_EVENTS_PER_SECOND: '100000' };

test('a receiver down 60 s under a stream: everything published arrives within 15 s of its return, once each', async ({ playwright }) => {
  test.setTimeout(240_000);
  const receiver = await new Receiver().start();
  let down = false;
  receiver.decide('/volta', () => (down ? { status: 503 } : { status: 204 }));
  const database = await privateDatabase('recovery');
  const server = await startServer({ dataDir: newDataDir('recovery'), env: { ...relaxed, ...database.env } });
  try {
    const api = await playwright.request.newContext({ baseURL: server.url });
    const configured = await api.put(apiPath(routes.updateWebhookConfiguration, { id: WEBHOOK_IDS.a1 }), {
      headers: bearer(await tokenFor(api, TENANT_A)),
      data: { url: receiver.url('/volta'), headers: [], ...FLAGS_OFF, eventoAvaliacaoSaudeArquivada: true },
    });
    expect(configured.status()).toBe(200);
    const producer = bearer(await tokenFor(api, PRODUCER));
    const published: { idEvento: string; at: number }[] = [];
    const publish = async (i: number) => {
      const idEvento = `volta-${i}`;
      const response = await api.post(apiPath(routes.publishEvent), {
        headers: producer,
        data: { tipo: 'eventoAvaliacaoSaudeArquivada', usuarioId: TENANT_A.usuarioId, idEvento, dados: { i } },
      });
      expect(response.status()).toBe(202);
      published.push({ idEvento, at: Date.now() });
    };

    // A stream of 4 a second for 80 s; the receiver is down from 10 s to 70 s.
    const start = Date.now();
    let returnedAt = 0;
    for (let i = 0; Date.now() - start < 80_000; i++) {
      const elapsed = Date.now() - start;
      if (!down && returnedAt === 0 && elapsed >= 10_000) down = true;
      if (down && elapsed >= 70_000) {
        down = false;
        returnedAt = Date.now();
      }
      await publish(i);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, start + (i + 1) * 250 - Date.now())));
    }
    expect(receiver.at('/volta').some((request) => request.answered === 503)).toBe(true);

    const firstAccepted = () => {
      const accepted = new Map<string, { idEvento: string; at: number; count: number }>();
      for (const request of receiver.at('/volta').filter((candidate) => candidate.answered === 204)) {
        const idEvento = (JSON.parse(request.body) as { data: { idEvento: string } }).data.idEvento;
        const seen = accepted.get(idEvento);
        accepted.set(idEvento, seen ? { ...seen, count: seen.count + 1 } : { idEvento, at: request.at, count: 1 });
      }
      return accepted;
    };
    await expect.poll(() => firstAccepted().size, { timeout: 60_000 }).toBe(published.length);
    const accepted = firstAccepted();
    // Nothing lost, nothing taken twice.
    expect(published.filter(({ idEvento }) => !accepted.has(idEvento))).toEqual([]);
    expect([...accepted.values()].filter(({ count }) => count > 1)).toEqual([]);
    // Whatever was published before the return arrived within 15 s of it.
    const late = published
      .filter(({ at }) => at < returnedAt)
      .map(({ idEvento }) => accepted.get(idEvento)!)
      .filter(({ at }) => at > returnedAt + 15_000);
    expect(late).toEqual([]);
    await api.dispose();
  } finally {
    await server.stop();
    await receiver.stop();
    await database.drop();
  }
});
