import { describe, expect, it } from 'vitest';
import { checkPassword } from './password-policy';

describe('staff password rules', () => {
  it.each([
    ['curta#1', 'passwordTooShort'],
    ['ana.souza-2026!!', 'passwordContainsEmail'],
    ['ANA.SOUZA-forte-2026', 'passwordContainsEmail'],
    ['qwerty123456', 'passwordCommon'],
    ['1QAZ2WSX3EDC', 'passwordCommon'],
  ])('%s breaks %s', (password, rule) => {
    expect(checkPassword(password, 'ana.souza@clinica.exemplo.com.br')).toBe(rule);
  });

  it('accepts a long, personal, uncommon password', () => {
    expect(checkPassword('Cavalo-Bateria-Grampo-42', 'ana.souza@clinica.exemplo.com.br')).toBeUndefined();
  });
});
