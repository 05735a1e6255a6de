import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, isPrivateHost, STRICT_URL_POLICY } from './url-policy';
import { FORBIDDEN_TARGETS, PUBLIC_TARGETS } from './url-policy.cases';

describe('checkWebhookUrl (strict policy)', () => {
  it.each(FORBIDDEN_TARGETS)('refuses %s as a private target', (url) => {
    expect(checkWebhookUrl(url)).toBe('urlPrivateTarget');
  });

  it.each(PUBLIC_TARGETS)('accepts %s', (url) => {
    expect(checkWebhookUrl(url)).toBeUndefined();
  });

  it.each([
    ['ftp://receptor.exemplo.com.br/hooks', 'urlScheme'],
    ['file:///etc/passwd', 'urlScheme'],
    ['javascript:alert(1)', 'urlScheme'],
    ['gopher://receptor.exemplo.com.br/', 'urlScheme'],
    ['ws://receptor.exemplo.com.br/', 'urlScheme'],
    ['data:text/plain,hi', 'urlScheme'],
    ['http://receptor.exemplo.com.br/hooks', 'urlHttpsRequired'],
    ['HTTP://receptor.exemplo.com.br/hooks', 'urlHttpsRequired'],
    ['https://user:senha@receptor.exemplo.com.br/hooks', 'urlCredentials'],
    ['https://user@receptor.exemplo.com.br/hooks', 'urlCredentials'],
    ['https://@receptor.exemplo.com.br/hooks', 'urlCredentials'],
    ['https://:@receptor.exemplo.com.br/hooks', 'urlCredentials'],
    ['/relative/path', 'urlInvalid'],
    ['receptor.exemplo.com.br/hooks', 'urlInvalid'],
    ['https://', 'urlInvalid'],
    ['https://999.1.1.1/', 'urlInvalid'],
    ['https://[fe80::1%25eth0]/', 'urlInvalid'],
    ['https://receptor.exemplo.com.br:0/hooks', 'urlInvalid'],
    ['https://receptor.exemplo.com.br/ho oks', 'urlUnsafeCharacters'],
    [' https://receptor.exemplo.com.br/hooks', 'urlUnsafeCharacters'],
    ['https://receptor.exemplo.com.br/hooks\n', 'urlUnsafeCharacters'],
    ['https://recep\ttor.exemplo.com.br/', 'urlUnsafeCharacters'],
    ['https://evil.exemplo.com\\@receptor.exemplo.com.br/', 'urlUnsafeCharacters'],
    ['https://receptor.exemplo.com.br/' + 'a'.repeat(2048), 'urlTooLong'],
    // IDNA would silently drop these from the host (or refuse them): what is read is not what is called.
    ['https://exa\u200bmple.com/hooks', 'urlInvisibleCharacters'],
    ['https://exa\u00admple.com/hooks', 'urlInvisibleCharacters'],
    ['https://receptor\u200d.exemplo.com.br/', 'urlInvisibleCharacters'],
    ['https://\u202emoc.elpmaxe/', 'urlInvisibleCharacters'],
    ['https://receptor.exemplo.com.br/\u2066hooks', 'urlInvisibleCharacters'],
    ['https://\ufeffreceptor.exemplo.com.br/', 'urlInvisibleCharacters'],
  ])('refuses %j with %s', (url, violation) => {
    expect(checkWebhookUrl(url)).toBe(violation);
  });

  it('accepts exactly 2048 characters', () => {
    const base = 'https://receptor.exemplo.com.br/';
    expect(checkWebhookUrl(base + 'a'.repeat(2048 - base.length))).toBeUndefined();
  });
});

describe('checkWebhookUrl (relaxed by configuration)', () => {
  it('accepts http only when allowed', () => {
    expect(checkWebhookUrl('http://receptor.exemplo.com.br/', { ...STRICT_URL_POLICY, allowHttp: true })).toBeUndefined();
  });

  it('accepts private targets only when allowed, and still refuses other rules', () => {
    const policy = { allowHttp: true, allowPrivateTargets: true };
    expect(checkWebhookUrl('http://localhost:4000/hook', policy)).toBeUndefined();
    expect(checkWebhookUrl('https://[::1]/hook', policy)).toBeUndefined();
    expect(checkWebhookUrl('https://169.254.169.254/', { allowHttp: false, allowPrivateTargets: true })).toBeUndefined();
    expect(checkWebhookUrl('http://localhost/', { allowHttp: false, allowPrivateTargets: true })).toBe('urlHttpsRequired');
    expect(checkWebhookUrl('https://u:p@localhost/', policy)).toBe('urlCredentials');
    expect(checkWebhookUrl('file:///etc/passwd', policy)).toBe('urlSchemeHttpOrHttps');
    expect(checkWebhookUrl('ftp://receptor.exemplo.com.br/', policy)).toBe('urlSchemeHttpOrHttps');
  });
});

describe('isPrivateHost on canonical hosts', () => {
  it('treats an IPv6 literal it cannot read as private', () => {
    expect(isPrivateHost('[not-an-address]')).toBe(true);
  });
  it('reads the NAT64 and 6to4 embeddings of public addresses as public', () => {
    expect(isPrivateHost('[64:ff9b::808:808]')).toBe(false);
    expect(isPrivateHost('[2002:808:808::1]')).toBe(false);
  });
});

describe('the reason a URL is refused', () => {
  it('names the private target before the missing https', () => {
    expect(checkWebhookUrl('http://127.0.0.1/hooks')).toBe('urlPrivateTarget');
    expect(checkWebhookUrl('http://localhost:8080/')).toBe('urlPrivateTarget');
    expect(checkWebhookUrl('http://receptor.exemplo.com.br/')).toBe('urlHttpsRequired');
  });
});
