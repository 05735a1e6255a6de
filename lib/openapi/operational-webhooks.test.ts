import { describe, expect, it } from 'vitest';
import { MESSAGE_SCHEMAS } from '@/lib/webhooks/events/messages';
import { OPERATIONAL_EVENT_TYPE_LIST } from '@/lib/webhooks/events/types';
import { OPERATOR_TENANT } from '@/lib/webhooks/events/operational';
import { operations } from '@/lib/api/operations';
import { buildOpenApiDocument } from './document';

/**
 * The operational events (issue 31 §3) in the OpenAPI document's `webhooks` section: one entry
 * each, under their own tag, with an example their own schema accepts; a message without the
 * configuration it is about, or another tenant's, is refused.
 */
describe('operational events in the OpenAPI document', () => {
  const document = buildOpenApiDocument(operations);
  type Entry = { post: { tags: string[]; requestBody: { content: { 'application/json': { example: Record<string, unknown> } } } } };
  const webhooks = document.webhooks as Record<string, Entry>;

  it.each(OPERATIONAL_EVENT_TYPE_LIST)('%s has an entry whose example its schema accepts, under the operational tag', (type) => {
    const entry = webhooks[type]!;
    expect(entry.post.tags).toEqual(['Operational notifications (webhooks)']);
    const example = entry.post.requestBody.content['application/json'].example as { type: string; data: Record<string, unknown> };
    const schema = MESSAGE_SCHEMAS[type]!;
    expect(schema.safeParse(example).success).toBe(true);
    expect(example).toMatchObject({ type, data: { usuarioId: OPERATOR_TENANT } });
    const { configuracao: _dropped, ...withoutConfiguration } = example.data;
    expect(schema.safeParse({ ...example, data: withoutConfiguration }).success).toBe(false);
    expect(schema.safeParse({ ...example, data: { ...example.data, usuarioId: '7d4f1c2a-3b5e-4c6d-8e9f-0a1b2c3d4e5f' } }).success).toBe(
      false,
    );
  });

  it('keeps the partners’ event types under their own tag', () => {
    expect(webhooks['proposta.cancelada']!.post.tags).toEqual(['Notifications (webhooks)']);
  });
});
