import 'server-only';
import { apiRoute } from '@/lib/http/route';
import { jsonResponse } from '@/lib/http/problem';
import { slotReservationSchema } from './contract';
import { reserveOrRelease } from './service';

/**
 * The reservation POST, served at the contract's endpoint and at the sample requests' path shape
 * (§4.2): both routes export this one handler.
 */
export const reservationPost = apiRoute({ capability: 'scheduling' }, async ({ principal, json, parse, locale }) => {
  const request = parse(slotReservationSchema, await json());
  const outcome = await reserveOrRelease(principal, request, locale);
  return jsonResponse(outcome.body, { status: outcome.status, headers: outcome.headers });
});
