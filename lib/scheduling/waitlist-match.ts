import type { WaitlistEntry } from './waitlist-contract';

/**
 * Which free slots suit a waitlist entry, without zod: the calendar (on the console's first load)
 * imports this, and zod's compiled parsers would need `eval`, which the console's CSP refuses.
 */

/**
 * Whether a free slot suits an entry: its agenda is one the entry accepts (any, when it names none)
 * and it starts, in the future, inside the entry's window. The one rule the offers (lib/waitlist)
 * and the calendar's "someone is waiting" mark both follow.
 */
export function slotSuits(
  entry: { agendas: readonly number[] | null; windowFrom: number; windowTo: number },
  slot: { CD_AGENDA: number; DT_AGENDA: string },
  now: number,
): boolean {
  const start = Date.parse(slot.DT_AGENDA);
  if (!Number.isFinite(start) || start <= now) return false;
  if (start < entry.windowFrom || start > entry.windowTo) return false;
  return entry.agendas === null || entry.agendas.includes(slot.CD_AGENDA);
}

/** How many waiting entries a free slot suits (the calendar's mark). */
export function waitingFor(slot: { CD_AGENDA: number; DT_AGENDA: string }, waiting: readonly WaitlistEntry[], now: number): number {
  return waiting.filter((entry) =>
    slotSuits({ agendas: entry.cdAgendas, windowFrom: Date.parse(entry.de), windowTo: Date.parse(entry.ate) }, slot, now),
  ).length;
}
