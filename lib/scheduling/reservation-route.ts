import 'server-only';
import { actorId } from '@/lib/auth/principal';
import { apiRoute } from '@/lib/http/route';
import { idempotencyKeyOf, idempotent } from '@/lib/idempotency/idempotent';
import { slotReservationSchema } from './contract';
import { reserveOrRelease } from './service';

/**
 * The reservation POST, served at the contract's endpoint and at the sample requests' path shape
 * (§4.2): both routes export this one handler. Retries are safe with an `Idempotency-Key`, scoped
 * to the caller; a key used on one path replays on the other, they are one operation.
 */
export const reservationPost = apiRoute({ capability: 'scheduling' }, async ({ request, principal, json, parse, locale }) => {
  const key = idempotencyKeyOf(request, locale);
  const body = parse(slotReservationSchema, await json());
  return idempotent({ owner: actorId(principal), key, body }, () => reserveOrRelease(principal, body, locale));
});
