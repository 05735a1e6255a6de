import 'server-only';
import { toNumber, type DbRow } from '@/lib/db/dialect';
import type { AttemptError, DeliveryStatus } from '../contract';
import type { CircuitState } from '../circuit';
import type { Candidate } from '../fair-share';
import type { PayloadControl } from '../../payload-control/contract';

/** Rows of the delivery store's tables as the engine reads them, and what an attempt records. */

export type EventRow = {
  id: string;
  idEvento: string | null;
  tipo: string;
  usuarioId: string;
  dados: Record<string, unknown>;
  createdAt: number;
};

export type DeliveryRow = {
  id: string;
  eventId: string;
  configId: string;
  status: DeliveryStatus;
  attempts: number;
  createdAt: number;
  nextAttemptAt: number | null;
  lastAttemptAt: number | null;
  lastStatus: number | null;
  lastDurationMs: number | null;
  lastBody: string | null;
  lastError: AttemptError | null;
  /** While an attempt is in flight: until when the instance making it holds it. */
  leaseUntil: number | null;
  /** When its current run of failed attempts began (null: none failed since it was last queued). */
  failingSince: number | null;
  /** Attempts that probed an open circuit before the delivery was due: not counted by its retry schedule. */
  earlyProbes: number;
};

export const optionalNumber = (value: unknown) => (value === null || value === undefined ? null : toNumber(value));

export const optionalString = (value: unknown) => (typeof value === 'string' ? value : null);

export function deliveryFromRow(row: DbRow): DeliveryRow {
  return {
    id: String(row.id),
    eventId: String(row.event_id),
    configId: String(row.config_id),
    status: String(row.status) as DeliveryStatus,
    attempts: toNumber(row.attempts),
    createdAt: toNumber(row.created_at),
    nextAttemptAt: optionalNumber(row.next_attempt_at),
    lastAttemptAt: optionalNumber(row.last_attempt_at),
    lastStatus: optionalNumber(row.last_status),
    lastDurationMs: optionalNumber(row.last_duration_ms),
    lastBody: optionalString(row.last_body),
    lastError: optionalString(row.last_error) as AttemptError | null,
    leaseUntil: optionalNumber(row.lease_until),
    failingSince: optionalNumber(row.failing_since),
    earlyProbes: optionalNumber(row.early_probes) ?? 0,
  };
}

export function eventFromRow(row: DbRow): EventRow {
  return {
    id: String(row.id),
    idEvento: optionalString(row.id_evento),
    tipo: String(row.tipo),
    usuarioId: String(row.usuario_id),
    dados: JSON.parse(String(row.dados_json)) as Record<string, unknown>,
    createdAt: toNumber(row.created_at),
  };
}

export type AttemptContext = {
  delivery: DeliveryRow;
  event: EventRow;
  config: {
    id: string;
    url: string;
    headers: { chave: string; valor: string }[];
    enabled: boolean;
    secretEnc: string;
    /** A broker target's credentials, encrypted (broker-credentials.ts); null or absent: none. */
    brokerCredentialsEnc?: string | null;
    previousSecretEnc: string | null;
    previousSecretUntil: number | null;
    failingSince: number | null;
    /** Its circuit when the attempt was claimed (openUntil set: the attempt is the probe). */
    circuitFailures: number;
    circuitOpenUntil: number | null;
    /** Its rate limit, attempts a second (null or absent: none): the request waits for its send slot. */
    ratePerSecond?: number | null;
    /** Its payload control (issue 46); absent: none. */
    payload?: PayloadControl;
  };
};

export type AttemptOutcome = {
  startedAt: number;
  durationMs: number;
  status: number | null;
  body: string | null;
  error: AttemptError | null;
  /** The destination could not be reached (the circuit counts it): its verdict's word (destinations/destination.ts). */
  outage: boolean;
  /** The receiver asked for a pause (429 or 503 with Retry-After): no attempt to this configuration before then. */
  pauseUntil?: number;
  /** The attempt probed an open circuit before the delivery was due (its schedule stays as it was). */
  earlyProbe?: boolean;
  requestHeaders: Record<string, string>;
  /** The body as sent (shaped by payload control), for the delivery log; null when nothing was sent. */
  requestBody?: string | null;
};

/** What happens to the delivery and its configuration after an attempt (decided by the worker). */
export type AttemptDecision = {
  status: DeliveryStatus;
  nextAttemptAt: number | null;
  /** Disable the configuration, for this reason. */
  disable?: 'receptor-410' | 'falhas-consecutivas';
  /** The configuration's failing_since after this attempt (null: it just succeeded). */
  failingSince: number | null;
};

export type AttemptRecord = { context: AttemptContext; outcome: AttemptOutcome; decision: AttemptDecision };

/** What recording an attempt did: whether this process still held it, and what became of the circuit. */
export type Recorded = {
  written: boolean;
  circuit?: { change: 'opened' | 'closed'; state: CircuitState };
  /** Configurations that got a pending delivery with it (an operational event: operational.ts), for the worker to wake. */
  queued?: Candidate[];
};
