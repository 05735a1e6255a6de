import { describe, expect, it } from 'vitest';
import { brasiliaDateTime, brasiliaInputToIso, brasiliaTypedToIso } from './brasilia-time';

describe('São Paulo times on the scheduling page', () => {
  it('reads a date typed the Brazilian way (day first) as São Paulo time, and refuses a day that does not exist', () => {
    expect(brasiliaTypedToIso('28/11/2026 10:30')).toBe('2026-11-28T10:30:00-03:00');
    expect(brasiliaTypedToIso(' 3/1/2026 ')).toBe('2026-01-03T00:00:00-03:00');
    expect(brasiliaTypedToIso('31/02/2026 10:00')).toBeUndefined();
    expect(brasiliaTypedToIso('28/11/2026 24:00')).toBeUndefined();
    expect(brasiliaTypedToIso('11/28/2026 10:30')).toBeUndefined();
    expect(brasiliaTypedToIso('2026-11-28T10:30')).toBeUndefined();
    expect(brasiliaTypedToIso('')).toBeUndefined();
  });

  it('reads a datetime-local value as São Paulo wall-clock time, whatever the process zone', () => {
    expect(brasiliaInputToIso('2026-05-04T07:30')).toBe('2026-05-04T07:30:00-03:00');
    expect(brasiliaInputToIso('2026-05-04T07:30:15')).toBe('2026-05-04T07:30:15-03:00');
    expect(brasiliaInputToIso('')).toBeUndefined();
    expect(brasiliaInputToIso('04/05/2026 07:30')).toBeUndefined();
  });

  it('shows an instant given in any offset as São Paulo time, in the locale’s format', () => {
    expect(brasiliaDateTime('2026-05-04T10:30:00Z', 'pt-BR')).toBe('04/05/2026, 07:30');
    expect(brasiliaDateTime('2026-05-04T07:30:00-03:00', 'pt-BR')).toBe('04/05/2026, 07:30');
    expect(brasiliaDateTime('2026-05-04T10:30:05.000Z', 'pt-BR', { seconds: true })).toBe('04/05/2026, 07:30:05');
    // A four-digit year, and the month by name: 5/4/26 could be three different days.
    expect(brasiliaDateTime('2026-05-04T10:30:00Z', 'en')).toBe('May 4, 2026, 7:30 AM');
    expect(brasiliaDateTime('não é data', 'pt-BR')).toBe('não é data');
  });
});
