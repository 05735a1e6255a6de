import type { ReservationOutcomeView } from '@/lib/scheduling/outcome';

/**
 * What the panel shows: an answer of the route, or the state of the latest attempt that has none
 * (sent and waiting, blocked by the form's own checks, or no answer because the network failed).
 * A new attempt always replaces the previous answer, so an old result is never read as the new one.
 */
export type OutcomeState = ReservationOutcomeView | { kind: 'pending' } | { kind: 'blocked' } | { kind: 'network' };
