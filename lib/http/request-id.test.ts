import { describe, expect, it } from 'vitest';
import { requestIdOf } from './request-id';

const withId = (value?: string) => new Request('http://localhost/api/x', { headers: value === undefined ? {} : { 'X-Request-Id': value } });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('requestIdOf', () => {
  it('keeps a sane X-Request-Id', () => {
    expect(requestIdOf(withId('lb-7f3a:42'))).toBe('lb-7f3a:42');
    expect(requestIdOf(withId('x'.repeat(128)))).toBe('x'.repeat(128));
  });

  it('generates a UUID when absent, empty, too long or not visible ASCII', () => {
    for (const value of [undefined, '', 'x'.repeat(129), 'com espaço', 'ção', 'a\tb']) {
      expect(requestIdOf(withId(value))).toMatch(UUID);
    }
  });

  it('generates a different id for each request', () => {
    expect(requestIdOf(withId())).not.toBe(requestIdOf(withId()));
  });
});
