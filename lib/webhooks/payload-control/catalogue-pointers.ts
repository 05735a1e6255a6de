import { z } from 'zod';
import { EVENT_TYPE_OF_FLAG, PUBLISHED_EVENT_FLAGS, type WebhookEventFlag } from '../events/types';
import { MESSAGE_SCHEMAS } from '../events/messages';
import { pointersOf, sampleMessage } from './samples';
import { mergeSuggestions, schemaPointers, type FieldSuggestion } from './schema-pointers';

/**
 * The field suggestions of the payload-control card (issue 46 §2): the pointers of the subscribed
 * event types' message schemas in the catalogue (lib/webhooks/message-contract.ts, the same the
 * OpenAPI document publishes), then the bench's sample message's for what a schema leaves open
 * (a producer's `dados` is any object; the scheduling events' schemas are closed, so theirs say all). Zod comes with it: the card loads this module on demand,
 * never in the editor's first load.
 */
export function catalogueFieldSuggestions(flags: readonly WebhookEventFlag[]): FieldSuggestion[] {
  const schemas = flags.flatMap((flag) => {
    const schema = MESSAGE_SCHEMAS[EVENT_TYPE_OF_FLAG[flag]];
    return schema ? [schemaPointers(z.toJSONSchema(schema, { unrepresentable: 'any' }))] : [];
  });
  const open = flags.filter((flag) => (PUBLISHED_EVENT_FLAGS as readonly string[]).includes(flag));
  const samples = open.map((flag) => pointersOf(sampleMessage(flag, '')).map((ponteiro) => ({ ponteiro })));
  return mergeSuggestions(...schemas, ...samples);
}
