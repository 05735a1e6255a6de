import { describe, expect, it } from 'vitest';
import { catalogueFieldSuggestions } from './catalogue-pointers';
import { filterPathOf, mergeSuggestions, schemaPointers } from './schema-pointers';

describe('schemaPointers', () => {
  it('names every property as a JSON Pointer, parents first, with its description', () => {
    const schema = {
      type: 'object',
      properties: {
        type: { type: 'string', description: 'The event type.' },
        data: {
          type: 'object',
          properties: { paciente: { type: 'object', properties: { cpf: { type: 'string', description: 'CPF' } } } },
        },
      },
    };
    expect(schemaPointers(schema)).toEqual([
      { ponteiro: '/type', descricao: 'The event type.' },
      { ponteiro: '/data' },
      { ponteiro: '/data/paciente' },
      { ponteiro: '/data/paciente/cpf', descricao: 'CPF' },
    ]);
  });

  it('reads lists by `*`, alternatives, local $refs and escapes names per RFC 6901', () => {
    const schema = {
      $defs: { exame: { type: 'object', properties: { codigo: { type: 'integer' } } } },
      properties: {
        exames: { type: 'array', items: { $ref: '#/$defs/exame' } },
        contato: { anyOf: [{ properties: { email: {} } }, { properties: { 'a/b~c': {} } }] },
      },
    };
    expect(schemaPointers(schema).map((suggestion) => suggestion.ponteiro)).toEqual([
      '/exames',
      '/exames/*/codigo',
      '/contato',
      '/contato/email',
      '/contato/a~1b~0c',
    ]);
  });

  it('gives nothing for a schema without properties', () => {
    expect(schemaPointers({ type: 'string' })).toEqual([]);
    expect(schemaPointers(null)).toEqual([]);
  });
});

describe('filterPathOf', () => {
  it('turns a pointer into the filter’s dotted path, lists matched by any element', () => {
    expect(filterPathOf('/data/nrSeqProcInterno')).toBe('data.nrSeqProcInterno');
    expect(filterPathOf('/data/avaliacao/cids/*')).toBe('data.avaliacao.cids');
    expect(filterPathOf('/data/exames/*/codigo')).toBe('data.exames.codigo');
    expect(filterPathOf('/data/a~1b')).toBe('data.a/b');
  });

  it('refuses what a dotted path cannot name', () => {
    expect(filterPathOf('data')).toBeUndefined();
    expect(filterPathOf('/data/v1.2')).toBeUndefined();
    expect(filterPathOf('/*')).toBeUndefined();
  });
});

describe('mergeSuggestions', () => {
  it('keeps each pointer once, in first-seen order, with a description when any list has one', () => {
    expect(
      mergeSuggestions([{ ponteiro: '/a' }, { ponteiro: '/b', descricao: 'B' }], [{ ponteiro: '/a', descricao: 'A' }, { ponteiro: '/c' }]),
    ).toEqual([{ ponteiro: '/a', descricao: 'A' }, { ponteiro: '/b', descricao: 'B' }, { ponteiro: '/c' }]);
  });
});

describe('catalogueFieldSuggestions', () => {
  it('offers a scheduling event’s schema fields, described, and none of another type’s', () => {
    const suggestions = catalogueFieldSuggestions(['eventoAgendamentoReservado']);
    const pointers = suggestions.map((suggestion) => suggestion.ponteiro);
    expect(pointers).toEqual([
      '/type',
      '/timestamp',
      '/data',
      '/data/idEvento',
      '/data/usuarioId',
      '/data/nrSeqAgenda',
      '/data/nrSeqProcInterno',
      '/data/tokenReserva',
    ]);
    expect(suggestions.find((suggestion) => suggestion.ponteiro === '/data/nrSeqProcInterno')?.descricao).toBe('The exam.');
  });

  it('adds the sample’s fields where the schema leaves a producer’s data open, and unites the subscribed types', () => {
    const pointers = catalogueFieldSuggestions(['eventoAvaliacaoSaudeAprovada', 'eventoAgendamentoOfertado']).map((s) => s.ponteiro);
    expect(pointers).toContain('/data/beneficiario/cpf');
    expect(pointers).toContain('/data/avaliacao/cids/*');
    expect(pointers).toContain('/data/prazo');
    expect(new Set(pointers).size).toBe(pointers.length);
  });

  it('offers nothing without a subscribed type', () => {
    expect(catalogueFieldSuggestions([])).toEqual([]);
  });
});
