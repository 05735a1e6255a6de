import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { reservationBody, RESERVE_PATH } from '../support/api';
import { OtlpReceiver } from '../support/otlp-receiver';
import { freePort, newDataDir, writeSeedFile } from '../support/server';
import { TENANT_A } from '../support/test-seed';

/**
 * The container recipe without a Docker engine: the standalone output laid out in a folder of its
 * own as the Dockerfile copies it (.next/standalone with its static assets), started with
 * `node server.js` as the image's CMD, on the embedded default. A reservation goes through it,
 * traced to an OTLP receiver in the default protocol (protobuf): the image holds the SDK it loads.
 * The image's create-admin command (`node create-admin.mjs`) runs there too, on the same data.
 */
test('the standalone server, laid out as in the container image, reserves a slot and traces it', async () => {
  const otlp = await new OtlpReceiver().start();
  const image = newDataDir('standalone-image');
  fs.cpSync(path.resolve('.next/standalone'), image, { recursive: true });
  const dataDir = newDataDir('standalone-data');
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOSTNAME: '127.0.0.1',
    DATA_DIR: dataDir,
    SEED_FILE: writeSeedFile(dataDir),
    NEXT_TELEMETRY_DISABLED: '1',
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
    OTEL_BSP_SCHEDULE_DELAY: '100',
  };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['server.js'], { cwd: image, env, stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}`;
  try {
    await expect.poll(async () => (await fetch(`${base}/api/health`).catch(() => undefined))?.status, { timeout: 30_000 }).toBe(200);
    // The console's static assets are served from the image too.
    const signIn = await fetch(`${base}/sign-in`);
    expect(signIn.status).toBe(200);
    const script = /src="(\/_next\/static\/[^"]+\.js)"/.exec(await signIn.text())?.[1];
    expect(script).toBeDefined();
    expect((await fetch(base + script!)).status).toBe(200);

    const tokenAnswer = await fetch(`${base}/api/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: TENANT_A.clientId, client_secret: TENANT_A.clientSecret }),
    });
    const { access_token: accessToken } = (await tokenAnswer.json()) as { access_token: string };
    const authorization = `Bearer ${accessToken}`;
    const slots = (await (await fetch(`${base}/api/v1/agendamentos/slots-livres?limite=1`, { headers: { authorization } })).json()) as {
      NR_SEQ_AGENDA: number;
    }[];
    const traceId = randomBytes(16).toString('hex');
    const reserve = await fetch(base + RESERVE_PATH, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json', traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
      body: JSON.stringify(reservationBody({ nrSeqAgenda: slots[0]!.NR_SEQ_AGENDA, cdPessoaFisica: 975001 })),
    });
    expect(reserve.status).toBe(200);
    expect(await reserve.json()).toMatchObject({ CODIGO_P: '0', IE_RESERVADO_P: 'S' });
    await expect.poll(() => otlp.receivedProtobufTrace(traceId)).toBe(true);

    // The first admin, as docs/production.md runs it in the container: only the image's own files.
    const command = spawnSync(process.execPath, ['create-admin.mjs', '--email', 'ti@hospital.example', '--url', base], {
      cwd: image,
      env,
      encoding: 'utf8',
    });
    expect(command.stderr).toBe('');
    expect(command.status).toBe(0);
    const token = /definir-senha\?token=([\w-]+)$/m.exec(command.stdout)?.[1];
    const set = await fetch(base + apiPath(routes.setPasswordWithLink), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, senha: 'Conteiner-Farol-Azul-9' }),
    });
    expect(set.status).toBe(204);
  } finally {
    child.kill('SIGTERM');
    await otlp.stop();
  }
});
