import { describe, expect, it } from 'vitest';
import { canonicalJson, isValidIdempotencyKey, requestFingerprint } from './key';

describe('Idempotency-Key syntax', () => {
  it.each(['a', 'f47ac10b-58cc-4372-a567-0e02b2c3d479', '~!@#$%^&*()_+{}|:"<>?', 'x'.repeat(255)])('accepts %j', (key) => {
    expect(isValidIdempotencyKey(key)).toBe(true);
  });
  it.each(['', ' ', 'a b', 'x'.repeat(256), 'chave-ç', 'a\tb', 'a\u0000', 'a\u007f'])('refuses %j', (key) => {
    expect(isValidIdempotencyKey(key)).toBe(false);
  });
});

describe('requestFingerprint', () => {
  it('ignores the order of keys at every level', () => {
    const a = { b: 1, a: { y: [1, { q: 1, p: 2 }], x: 'z' } };
    const b = { a: { x: 'z', y: [1, { p: 2, q: 1 }] }, b: 1 };
    expect(requestFingerprint(a)).toBe(requestFingerprint(b));
    expect(canonicalJson(b)).toBe('{"a":{"x":"z","y":[1,{"p":2,"q":1}]},"b":1}');
  });
  it('tells different values, types and array orders apart', () => {
    const base = requestFingerprint({ n: 1, s: 'a', l: [1, 2] });
    expect(requestFingerprint({ n: 2, s: 'a', l: [1, 2] })).not.toBe(base);
    expect(requestFingerprint({ n: '1', s: 'a', l: [1, 2] })).not.toBe(base);
    expect(requestFingerprint({ n: 1, s: 'a', l: [2, 1] })).not.toBe(base);
    expect(requestFingerprint({ n: 1, s: 'a', l: [1, 2], extra: null })).not.toBe(base);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
  });
});
