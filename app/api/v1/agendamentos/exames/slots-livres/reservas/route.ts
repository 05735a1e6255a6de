import { operations } from '@/lib/api/operations';
// The sample requests of §4.2 use this path shape; it behaves exactly like /slots-livres/reservar.
import { reservationPost } from '@/lib/api/reservation-route';
import { otherMethodsNotAllowed } from '@/lib/http/route';

export const dynamic = 'force-dynamic';
export const POST = reservationPost(operations.reserveOrReleaseSlotSamplePath);

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { GET, HEAD, PUT, DELETE, PATCH } = otherMethodsNotAllowed(POST);
