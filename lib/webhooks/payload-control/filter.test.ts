import { describe, expect, it } from 'vitest';
import { filterFault, matchesFilter } from './filter';

const payload = {
  type: 'avaliacao-saude.concluida',
  timestamp: '2026-11-28T10:00:00.000Z',
  data: {
    idEvento: 'e-1',
    valor: 120,
    nome: 'Maria',
    plano: 'OURO',
    vazio: null,
    exames: [
      { codigo: 'HEMO', valor: 10 },
      { codigo: 'GLIC', valor: 50 },
    ],
    tags: ['urgente', 'retorno'],
  },
};

const cases: [string, unknown, boolean][] = [
  ['plain equality', { type: 'avaliacao-saude.concluida' }, true],
  ['plain inequality', { type: 'outro' }, false],
  ['$eq on a nested path', { data: { plano: { $eq: 'OURO' } } }, true],
  ['dotted path', { 'data.plano': 'OURO' }, true],
  ['$neq', { 'data.plano': { $neq: 'PRATA' } }, true],
  ['$neq equal', { 'data.plano': { $neq: 'OURO' } }, false],
  ['$in', { 'data.plano': { $in: ['PRATA', 'OURO'] } }, true],
  ['$in miss', { 'data.plano': { $in: ['PRATA'] } }, false],
  ['$nin', { 'data.plano': { $nin: ['PRATA'] } }, true],
  ['$nin hit', { 'data.plano': { $nin: ['OURO'] } }, false],
  ['$gt', { 'data.valor': { $gt: 100 } }, true],
  ['$gt equal', { 'data.valor': { $gt: 120 } }, false],
  ['$gte', { 'data.valor': { $gte: 120 } }, true],
  ['$lt', { 'data.valor': { $lt: 120 } }, false],
  ['$lte', { 'data.valor': { $lte: 120 } }, true],
  ['$gt on ISO strings', { timestamp: { $gt: '2026-01-01' } }, true],
  ['$gt number against a string never holds', { 'data.nome': { $gt: 1 } }, false],
  ['$exist true', { 'data.nome': { $exist: true } }, true],
  ['$exist on null counts as present', { 'data.vazio': { $exist: true } }, true],
  ['$exist false', { 'data.cpf': { $exist: false } }, true],
  ['$exist missing', { 'data.cpf': { $exist: true } }, false],
  ['$startsWith', { type: { $startsWith: 'avaliacao-saude.' } }, true],
  ['$startsWith miss', { type: { $startsWith: 'proposta.' } }, false],
  ['$and', { $and: [{ 'data.plano': 'OURO' }, { 'data.valor': { $gt: 100 } }] }, true],
  ['$and one false', { $and: [{ 'data.plano': 'OURO' }, { 'data.valor': { $gt: 200 } }] }, false],
  ['$or', { $or: [{ 'data.plano': 'PRATA' }, { 'data.valor': { $gt: 100 } }] }, true],
  ['$or none', { $or: [{ 'data.plano': 'PRATA' }, { 'data.valor': { $gt: 200 } }] }, false],
  ['$not', { $not: { 'data.plano': 'PRATA' } }, true],
  ['$not inside a field', { data: { plano: { $not: { $in: ['OURO'] } } } }, false],
  ['several fields together', { 'data.plano': 'OURO', 'data.nome': 'Maria' }, true],
  ['array of scalars, any element', { 'data.tags': 'urgente' }, true],
  ['array of scalars, $in any element', { 'data.tags': { $in: ['x', 'retorno'] } }, true],
  ['array of scalars, $nin means none', { 'data.tags': { $nin: ['retorno'] } }, false],
  ['array of scalars, $startsWith any', { 'data.tags': { $startsWith: 'ret' } }, true],
  ['array compared whole', { 'data.tags': ['urgente', 'retorno'] }, true],
  ['array of objects, any element', { 'data.exames.codigo': 'GLIC' }, true],
  ['array of objects, one element meets all', { 'data.exames': { codigo: 'GLIC', valor: { $gt: 20 } } }, true],
  ['array of objects, no element meets all', { 'data.exames': { codigo: 'HEMO', valor: { $gt: 20 } } }, false],
  ['array of objects, $gt on a field', { 'data.exames.valor': { $gt: 40 } }, true],
  ['missing path', { 'data.x.y': 1 }, false],
  ['object equality', { 'data.exames': { $eq: { codigo: 'HEMO', valor: 10 } } }, true],
];

describe('matchesFilter', () => {
  it.each(cases)('%s', (_, filter, expected) => {
    expect(matchesFilter(filter, payload)).toBe(expected);
  });

  it('lets everything through without a filter', () => {
    expect(matchesFilter(null, payload)).toBe(true);
  });
});

describe('filterFault', () => {
  it('accepts every case above', () => {
    for (const [, filter] of cases) expect(filterFault(filter)).toBeNull();
  });

  it('points at an unknown operator', () => {
    expect(filterFault({ data: { valor: { $greater: 1 } } })).toEqual({
      path: ['data', 'valor', '$greater'],
      key: 'filterUnknownOperator',
      values: { operator: '$greater' },
    });
  });

  it('points at an operand of the wrong type', () => {
    expect(filterFault({ $or: [{ a: 1 }, { b: { $in: 'x' } }] })).toMatchObject({
      path: ['$or', 1, 'b', '$in'],
      key: 'filterExpectsValues',
    });
    expect(filterFault({ a: { $exist: 'yes' } })).toMatchObject({ path: ['a', '$exist'], key: 'filterExpectsBoolean' });
    expect(filterFault({ a: { $gt: [1] } })).toMatchObject({ path: ['a', '$gt'], key: 'filterExpectsNumberOrString' });
    expect(filterFault({ a: { $startsWith: 1 } })).toMatchObject({ path: ['a', '$startsWith'], key: 'filterExpectsString' });
    expect(filterFault({ $and: [] })).toMatchObject({ path: ['$and'], key: 'filterExpectsConditions' });
    expect(filterFault({ $not: 1 })).toMatchObject({ path: ['$not'], key: 'filterExpectsCondition' });
  });

  it('refuses what is not an object, empty path segments, and too deep a filter', () => {
    expect(filterFault([1])).toMatchObject({ path: [], key: 'filterNotObject' });
    expect(filterFault({ 'a..b': 1 })).toMatchObject({ path: ['a..b'], key: 'filterFieldName' });
    let deep: unknown = 1;
    for (let i = 0; i < 20; i++) deep = { a: deep };
    expect(filterFault(deep)).toMatchObject({ key: 'filterTooDeep' });
    expect(filterFault({ a: 'x'.repeat(9000) })).toMatchObject({ key: 'filterTooLarge' });
  });

  it('leaves an operator name inside an equality operand alone', () => {
    expect(filterFault({ a: { $eq: { $weird: 1 } } })).toBeNull();
  });
});
