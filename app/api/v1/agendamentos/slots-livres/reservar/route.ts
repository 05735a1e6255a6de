import { operations } from '@/lib/api/operations';
import { reservationPost } from '@/lib/scheduling/reservation-route';

export const dynamic = 'force-dynamic';
export const POST = reservationPost(operations.reserveOrReleaseSlot);
