import type { z } from 'zod';
import { auditEntrySchema } from '@/lib/audit/contract';
import { oauthErrorSchema, tokenRequestSchema, tokenResponseSchema } from '@/lib/auth/token-contract';
import { problemSchema } from '@/lib/http/problem-schema';
import {
  freeSlotSchema,
  procedureSchema,
  slotReservationResponseSchema,
  slotReservationSchema,
  slotSchema,
} from '@/lib/scheduling/contract';
import { recentReservationSchema } from '@/lib/scheduling/recent-reservations';
import {
  contactConfirmationSchema,
  webhookCreateSchema,
  webhookDetailSchema,
  webhookUpdateSchema,
  webhookViewSchema,
} from '@/lib/webhooks/configurations/contract';
import { waitlistEntryCreateSchema, waitlistEntrySchema, waitlistLineSchema, waitlistMoveSchema } from '@/lib/scheduling/waitlist-contract';
import {
  deliveryCreatedSchema,
  deliveryDetailSchema,
  deliverySchema,
  publishBatchSchema,
  publishedBatchSchema,
  publishedEventSchema,
  publishEventSchema,
  recoveryResultSchema,
  recoverySchema,
  webhookSecretSchema,
} from '@/lib/webhooks/delivery/contract';
import { deliveryAlertSchema, deliveryHealthSchema, triageItemSchema } from '@/lib/webhooks/delivery/health-contract';
import { MESSAGE_SCHEMAS } from '@/lib/webhooks/events/messages';

import { apiClientCreateSchema, apiClientViewSchema, apiClientWithSecretSchema } from '@/lib/api-clients/contract';
import {
  changePasswordSchema,
  passwordLinkSchema,
  setPasswordSchema,
  staffCreatedSchema,
  staffCreateSchema,
  staffUpdateSchema,
  staffViewSchema,
} from '@/lib/staff/contract';
import { livenessSchema, readinessSchema } from '@/lib/health/contract';
import { payloadBenchResultSchema, payloadBenchSchema } from '@/lib/webhooks/payload-control/bench-contract';
import {
  portalAccessSchema,
  portalLinkCreateSchema,
  portalLinkSchema,
  portalSessionOpenSchema,
  portalSessionSchema,
} from '@/lib/portal/contract';
import { jsonSchema, type JsonSchema } from '@/lib/validation/json-schema';

/**
 * The OpenAPI document's component schemas, each registered once, by name, with the zod schema the
 * API validates or answers with and the side it describes (a request body is rendered as an input,
 * what a caller may send; an answer as an output). Operations reference a component by its zod
 * schema (`ref(webhookViewSchema)`), never by a name typed again, and the document lists exactly
 * these (lib/openapi/document.ts).
 */
const COMPONENTS: Record<string, [z.ZodType, 'input' | 'output']> = {
  WebhookUpdate: [webhookUpdateSchema, 'input'],
  WebhookCreate: [webhookCreateSchema, 'input'],
  ApiClient: [apiClientViewSchema, 'output'],
  StaffUser: [staffViewSchema, 'output'],
  StaffCreate: [staffCreateSchema, 'input'],
  StaffCreated: [staffCreatedSchema, 'output'],
  StaffUpdate: [staffUpdateSchema, 'input'],
  PasswordLink: [passwordLinkSchema, 'output'],
  SetPassword: [setPasswordSchema, 'input'],
  ContactConfirmation: [contactConfirmationSchema, 'input'],
  ChangePassword: [changePasswordSchema, 'input'],
  ApiClientCreate: [apiClientCreateSchema, 'input'],
  ApiClientWithSecret: [apiClientWithSecretSchema, 'output'],
  WebhookView: [webhookViewSchema, 'output'],
  WebhookDetail: [webhookDetailSchema, 'output'],
  PublishEvent: [publishEventSchema, 'input'],
  PublishedEvent: [publishedEventSchema, 'output'],
  PublishEventBatch: [publishBatchSchema, 'input'],
  PublishedEventBatch: [publishedBatchSchema, 'output'],
  Delivery: [deliverySchema, 'output'],
  DeliveryDetail: [deliveryDetailSchema, 'output'],
  DeliveryCreated: [deliveryCreatedSchema, 'output'],
  Recovery: [recoverySchema, 'input'],
  RecoveryResult: [recoveryResultSchema, 'output'],
  WebhookSecret: [webhookSecretSchema, 'output'],
  DeliveryHealth: [deliveryHealthSchema, 'output'],
  DeliveryTriageItem: [triageItemSchema, 'output'],
  DeliveryAlert: [deliveryAlertSchema, 'output'],
  SlotReservationRequest: [slotReservationSchema, 'input'],
  SlotReservationResponse: [slotReservationResponseSchema, 'output'],
  FreeSlot: [freeSlotSchema, 'output'],
  Slot: [slotSchema, 'output'],
  Procedure: [procedureSchema, 'output'],
  RecentReservation: [recentReservationSchema, 'output'],
  WaitlistEntryCreate: [waitlistEntryCreateSchema, 'input'],
  WaitlistEntry: [waitlistEntrySchema, 'output'],
  WaitlistMove: [waitlistMoveSchema, 'input'],
  WaitlistLine: [waitlistLineSchema, 'output'],
  AuditEntry: [auditEntrySchema, 'output'],
  Liveness: [livenessSchema, 'output'],
  Readiness: [readinessSchema, 'output'],
  Problem: [problemSchema, 'output'],
  TokenRequest: [tokenRequestSchema, 'input'],
  TokenResponse: [tokenResponseSchema, 'output'],
  OAuthError: [oauthErrorSchema, 'output'],
  PortalLinkCreate: [portalLinkCreateSchema, 'input'],
  PortalLink: [portalLinkSchema, 'output'],
  PortalSessionOpen: [portalSessionOpenSchema, 'input'],
  PortalSession: [portalSessionSchema, 'output'],
  PortalAccess: [portalAccessSchema, 'output'],
  PayloadBench: [payloadBenchSchema, 'input'],
  PayloadBenchResult: [payloadBenchResultSchema, 'output'],
};

/** What receivers get (lib/webhooks/events/messages.ts): one component per event type, `proposta.cancelada` as `NotificacaoPropostaCancelada`. */
const pascal = (type: string) => type.replace(/(^|[.-])([a-z])/g, (_, __: string, letter: string) => letter.toUpperCase());
for (const [type, schema] of Object.entries(MESSAGE_SCHEMAS)) COMPONENTS[`Notificacao${pascal(type)}`] = [schema, 'output'];

const names = new Map<z.ZodType, string>(Object.entries(COMPONENTS).map(([name, [schema]]) => [schema, name]));

const refTo = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A `$ref` to the component registered for this schema; a schema that is not one is a programming error. */
export function ref(schema: z.ZodType): { $ref: string } {
  const name = names.get(schema);
  if (!name) throw new Error('ref: this schema is not a registered OpenAPI component (lib/openapi/components.ts)');
  return refTo(name);
}

/**
 * An answer's schema for the document: a registered component by reference, anything else (a list
 * of components, say) written out with each registered component inside it by reference.
 */
export function schemaDoc(schema: z.ZodType): JsonSchema {
  const name = names.get(schema);
  if (name) return refTo(name);
  return jsonSchema(schema, 'output', (inner) => {
    const innerName = names.get(inner as z.ZodType);
    return innerName ? refTo(innerName) : undefined;
  });
}

export function componentSchemas(): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(COMPONENTS).map(([name, [schema, io]]) => [name, jsonSchema(schema, io)]));
}
