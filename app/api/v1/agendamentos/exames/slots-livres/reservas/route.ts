import { operations } from '@/lib/api/operations';
// The sample requests of §4.2 use this path shape; it behaves exactly like /slots-livres/reservar.
import { reservationPost } from '@/lib/scheduling/reservation-route';

export const dynamic = 'force-dynamic';
export const POST = reservationPost(operations.reserveOrReleaseSlotSamplePath);
