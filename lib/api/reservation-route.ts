import { operations } from '@/lib/api/operations';
import 'server-only';
import { ownerKey } from '@/lib/auth/principal';
import { env } from '@/lib/config/env';
import { problems } from '@/lib/http/errors';
import { jsonResponse } from '@/lib/http/problem';
import { apiRoute } from '@/lib/http/route';
import { translator } from '@/lib/i18n';
import { inFlightTimeoutFor } from '@/lib/idempotency/constants';
import { idempotencyKeyOf, idempotent, REPLAYED_HEADER } from '@/lib/idempotency/idempotent';
import { maxReservationCallMs } from '@/lib/scheduling/call-duration';
import { slotReservationSchema } from '@/lib/scheduling/contract';
import { HoldQuotaExceeded } from '@/lib/scheduling/hold-quota';
import { reserveOrRelease } from '@/lib/scheduling/service';

/**
 * The reservation POST, served at the contract's endpoint and at the sample requests' path shape
 * (§4.2): both routes serve this one handler, each bound to its own operation. Retries are safe with an `Idempotency-Key`, scoped
 * to the caller (ownerKey); a key used on one path replays on the other, they are one operation.
 * A key stays in flight as long as the configured back-end may take for one call.
 */
export const reservationPost = (operation: typeof operations.reserveOrReleaseSlot | typeof operations.reserveOrReleaseSlotSamplePath) =>
  apiRoute(operation, async ({ request, principal, json, parse, locale }) => {
    const key = idempotencyKeyOf(request);
    const body = parse(slotReservationSchema, await json());
    const inFlightTimeoutMs = inFlightTimeoutFor(maxReservationCallMs(env()));
    try {
      const { answer, replayed } = await idempotent({ owner: ownerKey(principal), key, body, inFlightTimeoutMs }, () =>
        reserveOrRelease(principal, body),
      );
      return jsonResponse(answer.body, {
        status: answer.status,
        headers: { ...answer.headers, ...(replayed ? { [REPLAYED_HEADER]: 'true' } : {}) },
      });
    } catch (error) {
      // Nothing was reserved and the key was let go, so the same request may be sent again later.
      if (error instanceof HoldQuotaExceeded) {
        const detail = translator(locale)('scheduling.holdQuotaExceeded', { limit: error.limit });
        throw problems.tooManyRequests(error.retryAfterSeconds ?? 60, detail);
      }
      throw error;
    }
  });
