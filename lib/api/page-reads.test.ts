import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClientPrincipal } from '@/lib/auth/principal';
import { closeDb } from '@/lib/db/handle';
import { Refusal } from '@/lib/errors/refusal';
import { resetEnv } from '@/lib/testing/hooks';
import { webhookCreateSchema } from '@/lib/webhooks/configurations/contract';
import { createWebhook } from '@/lib/webhooks/configurations/service/create';
import { detailOf } from '@/lib/webhooks/delivery/detail';
import { etagOf, getWebhook } from '@/lib/webhooks/configurations/service/access';
import { readForPage } from './page-reads';

/**
 * A page's first read runs the operation's own handler for the page's caller: the API's answer
 * (body and ETag), its capability check and its tenant rule, on a throw-away embedded database.
 */
const partner: ApiClientPrincipal = {
  kind: 'api-client',
  issuer: 'embedded',
  scopes: ['webhooks'],
  clientId: 'leitura-de-pagina',
  usuarioId: '5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  sistemaOrigem: 4,
};
const otherTenant: ApiClientPrincipal = { ...partner, clientId: 'outro', usuarioId: '6b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e' };
const schedulingOnly: ApiClientPrincipal = { ...partner, scopes: ['scheduling'] };
const locale = 'pt-BR';

beforeAll(() => {
  process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-page-reads-unit-'));
  delete process.env.DATABASE_URL;
  resetEnv();
});
afterAll(async () => {
  await closeDb();
});

describe('reading for a page', () => {
  it('answers what the API answers: the configuration as JSON, with the ETag a save sends back', async () => {
    const created = await createWebhook(partner, webhookCreateSchema.parse({ url: 'https://pagina.exemplo.com.br/eventos' }));
    const id = created.config.id;
    const answer = await readForPage('getWebhookConfiguration', { principal: partner, locale }, { params: { id } });
    const stored = await getWebhook(partner, id);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(JSON.parse(JSON.stringify(await detailOf(stored))));
    expect(answer.headers.get('etag')).toBe(etagOf(stored));
    // The delivery log's first page, under the operation's own query defaults: none yet.
    const deliveries = await readForPage('listDeliveries', { principal: partner, locale }, { params: { id } });
    expect(deliveries.body).toEqual([]);
  });

  it('keeps to the operation’s rules: another tenant’s is not found, a caller without the capability is refused', async () => {
    const { config } = await createWebhook(partner, webhookCreateSchema.parse({ url: 'https://pagina-2.exemplo.com.br/eventos' }));
    const notFound = readForPage('getWebhookConfiguration', { principal: otherTenant, locale }, { params: { id: config.id } });
    await expect(notFound).rejects.toBeInstanceOf(Refusal);
    await expect(notFound).rejects.toMatchObject({ kind: 'not-found' });
    const forbidden = readForPage('getWebhookConfiguration', { principal: schedulingOnly, locale }, { params: { id: config.id } });
    await expect(forbidden).rejects.toMatchObject({ kind: 'forbidden' });
  });

  it('reads the query string as the API does, through the operation’s schema', async () => {
    await createWebhook(partner, webhookCreateSchema.parse({ url: 'https://procurada.exemplo.com.br/eventos' }));
    const found = await readForPage('listWebhookConfigurations', { principal: partner, locale }, { params: {}, query: { q: 'procurada' } });
    expect(found.body.map((view) => view.url)).toEqual(['https://procurada.exemplo.com.br/eventos']);
    await expect(readForPage('listDeliveries', { principal: partner, locale }, { params: { id: 'nao-e-um-uuid' } })).rejects.toThrow();
  });
});
