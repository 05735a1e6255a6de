import 'server-only';
import { FieldRejected } from '@/lib/validation/field-rejected';
import type { FieldRule } from './fields';
import { NO_PAYLOAD_CONTROL, type PayloadControl } from './contract';
import { compileFault } from './sandbox';

/** A PUT's or POST's payload control fields: absent keeps, null removes, a value replaces. */
export type PayloadControlInput = { filtro?: Record<string, unknown> | null; campos?: FieldRule[] | null; transformacao?: string | null };

export function payloadControlAfter(current: PayloadControl, input: PayloadControlInput): PayloadControl {
  const after: PayloadControl = {
    filter: input.filtro === undefined ? current.filter : input.filtro,
    fields: input.campos === undefined ? current.fields : (input.campos ?? []),
    transform: input.transformacao === undefined ? current.transform : input.transformacao,
  };
  return after.filter === null && after.fields.length === 0 && after.transform === null ? NO_PAYLOAD_CONTROL : after;
}

export function samePayloadControl(a: PayloadControl, b: PayloadControl): boolean {
  return JSON.stringify([a.filter, a.fields, a.transform]) === JSON.stringify([b.filter, b.fields, b.transform]);
}

/**
 * Code that would fail every delivery (it does not compile, defines no handler) is refused when
 * saved, 400 naming `transformacao` with the engine's reason, rather than found out in the log.
 */
export async function assertTransformCompiles(code: string | null | undefined): Promise<void> {
  if (typeof code !== 'string') return;
  const fault = await compileFault(code);
  if (fault) throw new FieldRejected('transformacao', 'transformInvalid', fault);
}
