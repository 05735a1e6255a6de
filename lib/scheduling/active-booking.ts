/**
 * The value of `reservations.active_booking` while a reservation is active (NULL once released):
 * one beneficiary, one procedure. Its unique index enforces rule 5 under concurrency.
 */
export function activeBookingKey(cdPessoaFisica: unknown, nrSeqProcInterno: unknown): string {
  return `${String(cdPessoaFisica)}:${String(nrSeqProcInterno)}`;
}
