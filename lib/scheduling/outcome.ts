import type { FieldError } from '@/lib/validation/issues';
import type { slotReservationResponseSchema, SlotReservationResponse } from './contract';
import { isCodigoP, type CodigoP } from './fields';

/**
 * What the console shows for an answer of the reservation route: one of the §7.2 result codes (with
 * its HTTP status), a 400 with field errors, or another problem (401, 403, 413, 502…). Pure, so
 * every outcome's rendering rule is unit-tested. The response schema is a parameter: the console
 * loads the contract (zod) only when it sends, not with the page.
 */
export type ReservationOutcomeView =
  | { kind: 'codigo'; status: number; codigo: CodigoP; body: SlotReservationResponse; tone: OutcomeTone }
  | { kind: 'unknown-codigo'; status: number; body: SlotReservationResponse; tone: 'danger' }
  | { kind: 'validation'; status: 400; errors: FieldError[]; tone: 'danger' }
  | { kind: 'problem'; status: number; detail?: string; tone: 'danger' };

export type OutcomeTone = 'success' | 'info' | 'warning' | 'danger';

/** 0 reserved and 1 released are the two successes; 2, 4, 5 are conflicts; 3 and 9 failures. */
const CODIGO_TONE: Record<CodigoP, OutcomeTone> = {
  '0': 'success',
  '1': 'info',
  '2': 'warning',
  '3': 'danger',
  '4': 'warning',
  '5': 'warning',
  '9': 'danger',
};

export function outcomeFrom(
  status: number,
  contentType: string | null,
  body: unknown,
  responseSchema: Pick<typeof slotReservationResponseSchema, 'safeParse'>,
): ReservationOutcomeView {
  const isProblem = (contentType ?? '').includes('problem+json');
  if (!isProblem) {
    const parsed = responseSchema.safeParse(body);
    if (parsed.success) {
      const codigo = parsed.data.CODIGO_P;
      if (isCodigoP(codigo)) return { kind: 'codigo', status, codigo, body: parsed.data, tone: CODIGO_TONE[codigo] };
      return { kind: 'unknown-codigo', status, body: parsed.data, tone: 'danger' };
    }
  }
  const problem = (body ?? {}) as { detail?: unknown; errors?: unknown };
  if (status === 400 && Array.isArray(problem.errors)) {
    return { kind: 'validation', status: 400, errors: problem.errors as FieldError[], tone: 'danger' };
  }
  return { kind: 'problem', status, detail: typeof problem.detail === 'string' ? problem.detail : undefined, tone: 'danger' };
}
