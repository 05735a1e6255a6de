import { describe, expect, it } from 'vitest';
import { waitlistEntryCreateSchema, type WaitlistEntry } from './waitlist-contract';
import { waitingFor } from './waitlist-match';

const entry = (cdAgendas: number[] | null, de: string, ate: string) => ({ cdAgendas, de, ate }) as WaitlistEntry;

describe('the waitlist contract', () => {
  it('counts the waiting entries a free slot suits: an accepted agenda, a start inside the window', () => {
    const slot = { CD_AGENDA: 939, DT_AGENDA: '2030-05-04T09:00:00-03:00' };
    const now = Date.parse('2030-05-01T00:00:00Z');
    const waiting = [
      entry(null, '2030-05-04T11:00:00Z', '2030-05-04T13:00:00Z'),
      entry([939], '2030-05-04T11:59:00Z', '2030-05-04T12:01:00Z'),
      entry([938], '2030-05-04T11:00:00Z', '2030-05-04T13:00:00Z'),
      entry(null, '2030-05-05T00:00:00Z', '2030-05-06T00:00:00Z'),
    ];
    expect(waitingFor(slot, waiting, now)).toBe(2);
    // A slot that has started suits nobody.
    expect(waitingFor(slot, waiting, Date.parse('2030-05-04T12:00:00Z'))).toBe(0);
  });

  it('refuses a reversed window or one longer than 180 days, naming ate', () => {
    const base = {
      nrSeqProcInterno: 1,
      nrMinDuracao: 30,
      cdPessoaFisica: 1,
      cdConvenio: 1,
      cdCategoria: 1,
      cdPlano: 1,
      cdUsuarioConvenio: 'x',
      nmUsuario: 'y',
    };
    const reversed = waitlistEntryCreateSchema.safeParse({ ...base, de: '2030-01-02T00:00:00Z', ate: '2030-01-01T00:00:00Z' });
    expect(reversed.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['ate']);
    const long = waitlistEntryCreateSchema.safeParse({ ...base, de: '2030-01-01T00:00:00Z', ate: '2030-12-01T00:00:00Z' });
    expect(long.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['ate']);
    expect(waitlistEntryCreateSchema.safeParse({ ...base, de: '2030-01-01T00:00:00Z', ate: '2030-02-01T00:00:00Z' }).success).toBe(true);
  });
});
