import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './safe-return-path';

describe('safeReturnPath', () => {
  it.each(['/webhooks', '/webhooks/abc?q=x#top', '/scheduling'])('keeps the same-origin path %s', (path) => {
    expect(safeReturnPath(path)).toBe(path);
  });

  it.each([
    ['protocol-relative', '//evil.example/x'],
    ['backslash', '/\\evil.example/x'],
    ['tab the browser drops', '/\t/evil.example/x'],
    ['newline', '/\n/evil.example'],
    ['dot segment to protocol-relative', '/.//evil.example'],
    ['absolute URL', 'https://evil.example/'],
    ['scheme-like', 'javascript:alert(1)'],
    ['not a string', ['/a', '/b']],
    ['empty', ''],
  ])('refuses %s', (_, value) => {
    const result = safeReturnPath(value);
    expect(result).toBeUndefined();
  });

  it('never returns something a browser would resolve to another origin', () => {
    for (const candidate of ['/%09/evil.example', '/%2F%2Fevil.example', '/..//evil.example', '/a/../..//evil.example']) {
      const result = safeReturnPath(candidate);
      if (result !== undefined) expect(new URL(result, 'https://console.example').origin).toBe('https://console.example');
    }
  });
});
