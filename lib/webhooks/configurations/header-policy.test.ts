import { describe, expect, it } from 'vitest';
import { toFieldErrors } from '@/lib/validation/issues';
import { webhookUpdateSchema, webhookUpdateSchemaFor } from './contract';
import { messagesFor } from '@/lib/i18n';
import {
  checkHeaderName,
  checkHeaderValue,
  duplicateHeaderIndexes,
  headersWireLength,
  looksSecret,
  MAX_HEADERS_TOTAL_BYTES,
  utf8Length,
} from './header-policy';

const RESERVED_HEADER_NAMES = [
  'Host',
  'Content-Length',
  'Content-Type',
  'Transfer-Encoding',
  'Connection',
  'Upgrade',
  'TE',
  'Trailer',
  'Expect',
  'Keep-Alive',
  'Proxy-Authorization',
  'Proxy-Connection',
  'proxy-anything',
  'HOST',
  'content-length',
];

describe('header names', () => {
  it.each(RESERVED_HEADER_NAMES)('refuses %s as reserved', (name) => {
    expect(checkHeaderName(name)).toBe('headerNameReserved');
  });

  it.each(['X Api', 'X-Api:', 'X-Api\r\n', 'Çhave', ':authority', 'a/b', 'a"b', 'a(b)', '', 'X-Api\u0000'])(
    'refuses %j as not a token',
    (name) => {
      expect(checkHeaderName(name)).toBe('headerNameToken');
    },
  );

  it.each(['X-Api-Key', 'Authorization', "x!#$%&'*+-.^_`|~9", 'Proxy', 'Hosts', 'X-Content-Type'])('accepts %s', (name) => {
    expect(checkHeaderName(name)).toBeUndefined();
  });
});

describe('header values', () => {
  it.each(['a\rb', 'a\nb', 'a\r\nX-Injected: 1', 'a\u0000b'])('refuses %j as a line break or NUL', (value) => {
    expect(checkHeaderValue(value)).toBe('headerValueLineBreak');
  });

  it.each(['a\u0001b', 'a\u001fb', 'a\u007fb', 'a\u000bb'])('refuses %j as a control character', (value) => {
    expect(checkHeaderValue(value)).toBe('headerValueControl');
  });

  it('counts UTF-8 bytes, not characters', () => {
    expect(utf8Length('ção')).toBe(5);
    expect(checkHeaderValue('a'.repeat(4096))).toBeUndefined();
    expect(checkHeaderValue('a'.repeat(4097))).toBe('headerValueTooLong');
    expect(checkHeaderValue('ç'.repeat(2048))).toBeUndefined(); // 4096 bytes
    expect(checkHeaderValue('ç'.repeat(2049))).toBe('headerValueTooLong'); // 4098 bytes, 2049 characters
    expect(checkHeaderValue('ÿ'.repeat(2049))).toBe('headerValueTooLong'); // 4098 bytes, the last Latin-1 letter
  });

  it.each(['€ euro', 'naïve ✓', 'São Paulo – ok', 'emoji 🎉', 'ĉ'])('refuses %j: a character HTTP cannot carry', (value) => {
    expect(checkHeaderValue(value)).toBe('headerValueCharset');
  });

  it('accepts what Node sends: the same values go through http.request without ERR_INVALID_CHAR', async () => {
    const { validateHeaderValue } = await import('node:http');
    for (const value of ['ação', 'São Paulo - ok', 'naïve', 'ÿ', 'a\tb', '~!@#$%^&*()']) {
      expect(checkHeaderValue(value)).toBeUndefined();
      expect(() => validateHeaderValue('x-test', value)).not.toThrow();
    }
    for (const value of ['€ euro', 'naïve ✓', '–']) expect(() => validateHeaderValue('x-test', value)).toThrow();
  });

  it('accepts empty values, tabs inside, and Latin-1 letters; refuses surrounding spaces', () => {
    expect(checkHeaderValue('')).toBeUndefined();
    expect(checkHeaderValue('a\tb')).toBeUndefined();
    expect(checkHeaderValue('São Paulo - ok')).toBeUndefined();
    expect(checkHeaderValue(' segredo')).toBe('noSurroundingSpaces');
    expect(checkHeaderValue('segredo\t')).toBe('noSurroundingSpaces');
  });
});

describe('duplicate names', () => {
  it('finds later repeats ignoring case', () => {
    expect(duplicateHeaderIndexes(['X-A', 'x-b', 'x-a', 'X-B', 'X-C'])).toEqual([2, 3]);
    expect(duplicateHeaderIndexes([])).toEqual([]);
  });
});

describe('webhookUpdateSchema (the one the form and the route share)', () => {
  const errorsOf = (body: unknown, locale: 'pt-BR' | 'en' = 'en') => {
    const result = webhookUpdateSchema.safeParse(body);
    return result.success ? [] : toFieldErrors(result.error, body, messagesFor(locale));
  };

  it('names each bad header field with its policy code and a translated message', () => {
    const body = {
      headers: [
        { chave: 'X-Api-Key', valor: 'ok' },
        { chave: 'x-api-key', valor: 'repetido' },
        { chave: 'Transfer-Encoding', valor: 'chunked' },
        { chave: 'X-Ok', valor: 'a\r\nHost: evil' },
      ],
    };
    expect(errorsOf(body).map(({ field, code }) => ({ field, code }))).toEqual([
      { field: 'headers.2.chave', code: 'headerNameReserved' },
      { field: 'headers.3.valor', code: 'headerValueLineBreak' },
      { field: 'headers.1.chave', code: 'headerDuplicate' },
    ]);
    const [first] = errorsOf(body, 'pt-BR');
    expect(first?.message).toMatch(/controlado pelo envio/);
  });

  it('reports a repeated name on the repeat, with its message', () => {
    const body = {
      headers: [
        { chave: 'X-A', valor: '1' },
        { chave: 'x-a', valor: '2' },
      ],
    };
    expect(errorsOf(body)).toEqual([
      expect.objectContaining({ field: 'headers.1.chave', code: 'headerDuplicate', message: expect.stringMatching(/Repeated header/) }),
    ]);
  });

  it('gives a value outside the length bounds one error, not a second policy one', () => {
    expect(errorsOf({ url: '' }).map((e) => e.code)).toEqual(['too_small']);
    expect(errorsOf({ headers: [{ chave: '', valor: 'x' }] }).map((e) => e.code)).toEqual(['too_small']);
    expect(errorsOf({ headers: [{ chave: 'X-A', valor: 'a\n'.repeat(3000) }] }).map((e) => e.code)).toEqual(['too_big']);
  });

  it('refuses more than 20 headers', () => {
    const headers = Array.from({ length: 21 }, (_, i) => ({ chave: `X-H${i}`, valor: 'v' }));
    expect(errorsOf({ headers })).toEqual([expect.objectContaining({ field: 'headers', code: 'too_big' })]);
    expect(errorsOf({ headers: headers.slice(0, 20) })).toEqual([]);
  });

  it('applies the URL policy with translated messages, relaxed only through webhookUpdateSchemaFor', () => {
    expect(errorsOf({ url: 'https://127.0.0.1/' }, 'pt-BR')).toEqual([
      expect.objectContaining({ field: 'url', code: 'urlPrivateTarget', message: expect.stringMatching(/privado/) }),
    ]);
    expect(errorsOf({ url: 'http://receptor.exemplo.com.br/' })).toEqual([expect.objectContaining({ code: 'urlHttpsRequired' })]);
    expect(errorsOf({ url: 'https://r.exemplo.com.br/' + 'a'.repeat(2100) })).toEqual([
      expect.objectContaining({ field: 'url', code: 'too_big' }),
    ]);
    const relaxed = webhookUpdateSchemaFor({ allowHttp: true, allowPrivateTargets: true });
    expect(relaxed.safeParse({ url: 'http://127.0.0.1:4000/hook' }).success).toBe(true);
  });
});

describe('headers as a whole', () => {
  const header = (i: number, bytes: number) => ({ chave: `X-H${i}`, valor: 'v'.repeat(bytes) });

  it('refuses a set larger than an HTTP server accepts, naming the headers list', () => {
    const tooMany = Array.from({ length: 5 }, (_, i) => header(i, 4000));
    const result = webhookUpdateSchema.safeParse({ headers: tooMany });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ['headers'], params: { key: 'headersTooLarge', max: MAX_HEADERS_TOTAL_BYTES } }),
    ]);
  });

  it('accepts a large set that still fits', () => {
    expect(webhookUpdateSchema.safeParse({ headers: Array.from({ length: 3 }, (_, i) => header(i, 4000)) }).success).toBe(true);
    expect(headersWireLength([{ chave: 'Ab', valor: 'ção' }])).toBe(2 + 5 + 4);
  });
});

describe('looksSecret', () => {
  it.each([
    'Authorization',
    'Cookie',
    'X-Api-Key',
    'x-token',
    'X-Client-Secret',
    'X-Password',
    'X-Signature',
    'Proxy-Auth',
    'X-Chave-Api',
    'X-Receptor-Senha',
    'X-Segredo',
    'X-Assinatura',
    'X-Credenciais',
  ])('%s is masked', (name) => {
    expect(looksSecret(name)).toBe(true);
  });
  it.each(['X-Origem', 'X-Tenant', 'Accept-Language', 'X-Request-Source'])('%s is shown', (name) => {
    expect(looksSecret(name)).toBe(false);
  });
});
