import { describe, expect, it } from 'vitest';
import { minimise, pointerSegments } from './fields';

const payload = () => ({
  type: 'avaliacao-saude.concluida',
  timestamp: '2026-11-28T10:00:00.000Z',
  data: {
    idEvento: 'e-1',
    paciente: { nome: 'Maria Souza', cpf: '12345678901', telefone: '11999990000' },
    exames: [
      { codigo: 'HEMO', laudo: 'normal' },
      { codigo: 'GLIC', laudo: 'alterado' },
    ],
    'a/b': 1,
  },
});

describe('minimise', () => {
  it('changes nothing without rules', () => {
    expect(minimise(payload(), [])).toEqual(payload());
  });

  it('keeps only the kept fields and the envelope', () => {
    expect(minimise(payload(), [{ ponteiro: '/data/paciente/nome', acao: 'manter' }])).toEqual({
      type: 'avaliacao-saude.concluida',
      timestamp: '2026-11-28T10:00:00.000Z',
      data: { paciente: { nome: 'Maria Souza' } },
    });
  });

  it('keeps a field of every element with a wildcard', () => {
    const kept = minimise(payload(), [{ ponteiro: '/data/exames/*/codigo', acao: 'manter' }]) as { data: unknown };
    expect(kept.data).toEqual({ exames: [{ codigo: 'HEMO' }, { codigo: 'GLIC' }] });
  });

  it('removes fields, list elements included, and escaped names', () => {
    const result = minimise(payload(), [
      { ponteiro: '/data/paciente/cpf', acao: 'remover' },
      { ponteiro: '/data/exames/0', acao: 'remover' },
      { ponteiro: '/data/a~1b', acao: 'remover' },
    ]) as { data: Record<string, unknown> };
    expect(result.data.paciente).toEqual({ nome: 'Maria Souza', telefone: '11999990000' });
    expect(result.data.exames).toEqual([{ codigo: 'GLIC', laudo: 'alterado' }]);
    expect(result.data).not.toHaveProperty('a/b');
  });

  it('removes a field of every element', () => {
    const result = minimise(payload(), [{ ponteiro: '/data/exames/*/laudo', acao: 'remover' }]) as { data: { exames: unknown } };
    expect(result.data.exames).toEqual([{ codigo: 'HEMO' }, { codigo: 'GLIC' }]);
  });

  it('masks keeping the last characters, as the audit trail does', () => {
    const result = minimise(payload(), [
      { ponteiro: '/data/paciente/cpf', acao: 'mascarar', visiveis: 2 },
      { ponteiro: '/data/paciente/telefone', acao: 'mascarar' },
      { ponteiro: '/data/exames/*/laudo', acao: 'mascarar', visiveis: 0 },
    ]) as { data: { paciente: Record<string, string>; exames: { laudo: string }[] } };
    expect(result.data.paciente.cpf).toBe('••••••••01');
    expect(result.data.paciente.telefone).toBe('••••••••000');
    expect(result.data.exames.map((exame) => exame.laudo)).toEqual(['••••••', '••••••••']);
  });

  it('masks every value of an object', () => {
    const result = minimise(payload(), [{ ponteiro: '/data/paciente', acao: 'mascarar', visiveis: 1 }]) as { data: { paciente: unknown } };
    expect(result.data.paciente).toEqual({ nome: '••••••••a', cpf: '••••••••1', telefone: '••••••••0' });
  });

  it('applies keep, then remove, then mask, whatever the order given', () => {
    const result = minimise(payload(), [
      { ponteiro: '/data/paciente/cpf', acao: 'mascarar' },
      { ponteiro: '/data/paciente/nome', acao: 'remover' },
      { ponteiro: '/data/paciente', acao: 'manter' },
    ]) as { data: unknown };
    expect(result.data).toEqual({ paciente: { cpf: '••••••••901', telefone: '11999990000' } });
  });

  it('ignores pointers that reach nothing, and leaves the input untouched', () => {
    const input = payload();
    const result = minimise(input, [
      { ponteiro: '/data/nada/x', acao: 'remover' },
      { ponteiro: '/data/paciente/cpf', acao: 'remover' },
    ]);
    expect(input.data.paciente.cpf).toBe('12345678901');
    expect(result).not.toEqual(input);
  });
});

describe('pointerSegments', () => {
  it('reads RFC 6901 escapes', () => {
    expect(pointerSegments('/a~1b/c~0d')).toEqual(['a/b', 'c~d']);
    expect(pointerSegments('a')).toBeUndefined();
  });
});
