import type { FreeSlot } from '@/lib/scheduling/contract';
import { slotSuits } from '@/lib/scheduling/waitlist-match';

/**
 * Who gets a freed slot (issue 48). Pure rules, no server imports.
 *
 * An entry matches a free slot when the slot's agenda is one it accepts (any, when it names none)
 * and the slot starts inside its window. Among the entries of one exam that match, the slot goes
 * to the tenant whose turn it is, then to that tenant's first entry in line:
 * - turns between tenants: the tenant least recently offered a slot of this exam goes first (one
 *   never offered one, first of all), so a tenant with many entries cannot take every freed slot of
 *   an exam while another waits for it; between tenants equally placed, the one whose first entry
 *   has waited longest;
 * - within a tenant, its line order (position: creation, or where staff moved the entry).
 */
export type LineEntry = {
  id: string;
  usuarioId: string;
  agendas: number[] | null;
  windowFrom: number;
  windowTo: number;
  position: number;
};

export function matches(entry: LineEntry, slot: Pick<FreeSlot, 'CD_AGENDA' | 'DT_AGENDA'>, now: number): boolean {
  return slotSuits(entry, slot, now);
}

/** The entry a slot is offered to among `candidates` (entries of one exam that match it), given each tenant's last offer. */
export function nextInLine<E extends LineEntry>(candidates: readonly E[], lastOfferAt: ReadonlyMap<string, number>): E | undefined {
  const firstOfTenant = new Map<string, E>();
  for (const entry of [...candidates].sort(byPosition)) {
    if (!firstOfTenant.has(entry.usuarioId)) firstOfTenant.set(entry.usuarioId, entry);
  }
  let chosen: E | undefined;
  for (const entry of firstOfTenant.values()) {
    if (!chosen) {
      chosen = entry;
      continue;
    }
    const turn = lastOfferAt.get(entry.usuarioId) ?? Number.NEGATIVE_INFINITY;
    const chosenTurn = lastOfferAt.get(chosen.usuarioId) ?? Number.NEGATIVE_INFINITY;
    if (turn < chosenTurn || (turn === chosenTurn && byPosition(entry, chosen) < 0)) chosen = entry;
  }
  return chosen;
}

function byPosition(a: LineEntry, b: LineEntry): number {
  return a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The position that puts an entry at `place` (1 first) of a line (positions in order, the moved
 * entry left out): between its new neighbours, or a step before the first or after the last.
 */
export function positionAt(line: readonly number[], place: number): number {
  if (line.length === 0) return Date.now();
  const index = Math.min(Math.max(place, 1), line.length + 1) - 1;
  if (index === 0) return line[0]! - 1000;
  if (index === line.length) return line[line.length - 1]! + 1000;
  return (line[index - 1]! + line[index]!) / 2;
}
