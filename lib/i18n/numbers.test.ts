import { describe, expect, it } from 'vitest';
import { formatNumber } from './numbers';

describe('formatNumber', () => {
  it.each(['pt-BR', 'en'])('writes every number as Intl.NumberFormat does (%s)', (locale) => {
    const intl = new Intl.NumberFormat(locale);
    const values = [...Array.from({ length: 1000 }, (_, n) => n), 1000, 1234, 999_999, 1_234_567, -1, -999, 0.5, 12.25, 999.5, -0];
    for (const value of values) expect(formatNumber(value, locale), String(value)).toBe(intl.format(value));
  });

  it('groups thousands the language’s way', () => {
    expect(formatNumber(1234, 'pt-BR')).toBe('1.234');
    expect(formatNumber(1234, 'en')).toBe('1,234');
  });
});
