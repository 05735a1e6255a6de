import { describe, expect, it } from 'vitest';
import { withFieldRule, withFilterField } from './draft-text';

describe('withFieldRule', () => {
  it('starts a list from empty text and appends to one', () => {
    const first = withFieldRule('', '/data/beneficiario/cpf', 'mascarar');
    expect(JSON.parse(first!)).toEqual([{ ponteiro: '/data/beneficiario/cpf', acao: 'mascarar' }]);
    expect(JSON.parse(withFieldRule(first!, '/data/plano', 'remover')!)).toEqual([
      { ponteiro: '/data/beneficiario/cpf', acao: 'mascarar' },
      { ponteiro: '/data/plano', acao: 'remover' },
    ]);
  });

  it('replaces the rule a pointer already has, as a pointer holds one rule', () => {
    const text = JSON.stringify([{ ponteiro: '/data/plano', acao: 'mascarar', visiveis: 2 }]);
    expect(JSON.parse(withFieldRule(text, '/data/plano', 'manter')!)).toEqual([{ ponteiro: '/data/plano', acao: 'manter' }]);
  });

  it('changes nothing in text that is not a JSON list', () => {
    expect(withFieldRule('[{', '/data', 'remover')).toBeUndefined();
    expect(withFieldRule('{}', '/data', 'remover')).toBeUndefined();
  });
});

describe('withFilterField', () => {
  it('adds an existence condition on the path, keeping the others', () => {
    expect(JSON.parse(withFilterField('', 'data.nrSeqProcInterno')!)).toEqual({ 'data.nrSeqProcInterno': { $exist: true } });
    const text = JSON.stringify({ 'data.plano': 'OURO' });
    expect(JSON.parse(withFilterField(text, 'data.proposta')!)).toEqual({ 'data.plano': 'OURO', 'data.proposta': { $exist: true } });
  });

  it('leaves a condition already on the path as the user wrote it', () => {
    const text = JSON.stringify({ 'data.plano': { $in: ['OURO'] } });
    expect(JSON.parse(withFilterField(text, 'data.plano')!)).toEqual({ 'data.plano': { $in: ['OURO'] } });
  });

  it('changes nothing in text that is not a JSON object', () => {
    expect(withFilterField('[]', 'data.plano')).toBeUndefined();
    expect(withFilterField('{', 'data.plano')).toBeUndefined();
  });
});
