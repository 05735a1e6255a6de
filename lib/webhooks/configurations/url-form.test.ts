import { describe, expect, it } from 'vitest';
import { asciiFormOfUnicodeHost, normalizeWebhookUrl } from './url-form';

describe('normalizeWebhookUrl and asciiFormOfUnicodeHost', () => {
  it.each([
    ['https://аpple.com/hooks', 'https://xn--pple-43d.com/hooks'],
    ['https://Receptor.Exemplo.com.br', 'https://receptor.exemplo.com.br/'],
    ['https://münchen.exemplo.de:8443/a?b=1', 'https://xn--mnchen-3ya.exemplo.de:8443/a?b=1'],
  ])('stores %j as %j', (raw, normalized) => {
    expect(normalizeWebhookUrl(raw)).toBe(normalized);
  });

  it('names the ASCII form only when the host is internationalised', () => {
    expect(asciiFormOfUnicodeHost('https://аpple.com/x')).toBe('https://xn--pple-43d.com/x');
    expect(asciiFormOfUnicodeHost('https://apple.com/ação')).toBeUndefined();
    expect(asciiFormOfUnicodeHost('https://apple.com/x')).toBeUndefined();
    expect(asciiFormOfUnicodeHost('not a url ç')).toBeUndefined();
  });
});
