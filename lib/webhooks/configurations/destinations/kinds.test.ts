import { describe, expect, it } from 'vitest';
import { messagesFor } from '@/lib/i18n';
import { isBrokerUrl, normalizeBrokerUrl } from '../broker-target';
import { ATTEMPT_ERRORS } from '../../delivery/contract';
import { KINDS, kindOf } from './kinds';

/** The kinds list as the rest of the product reads it (issue 43). */
describe('the destination kinds', () => {
  it('each has a unique name and schemes no other kind claims, its TLS scheme first (what the console starts a URL with)', () => {
    expect(new Set(KINDS.map((descriptor) => descriptor.kind)).size).toBe(KINDS.length);
    const schemes = KINDS.flatMap((descriptor) => descriptor.schemes.map((scheme) => scheme.scheme));
    expect(new Set(schemes).size).toBe(schemes.length);
    for (const descriptor of KINDS) expect(descriptor.schemes[0]?.tls, descriptor.kind).toBe(true);
  });

  it('each has its picker label and URL help in both catalogues', () => {
    for (const locale of ['pt-BR', 'en'] as const) {
      const messages = messagesFor(locale);
      for (const descriptor of KINDS) {
        const keys = [descriptor.labelKey, ...descriptor.helpKeys(false), ...descriptor.helpKeys(true)];
        for (const key of keys) expect(messages[key], `${locale} ${key}`).toBeTruthy();
      }
    }
  });

  it('each failure reason a kind gives is in the delivery log’s catalogue, in words in both languages', () => {
    for (const descriptor of KINDS) {
      for (const reason of descriptor.failures) {
        expect(ATTEMPT_ERRORS as readonly string[], `${descriptor.kind} ${reason}`).toContain(reason);
        for (const locale of ['pt-BR', 'en'] as const)
          expect((messagesFor(locale) as Record<string, string>)[`delivery.error.${reason}`], `${locale} ${reason}`).toBeTruthy();
        expect(descriptor.failuresDescription).toContain(`\`${reason}\``);
      }
    }
  });

  it('reads a target by its scheme, whatever its case, and parses it with its own kind', () => {
    for (const descriptor of KINDS) {
      for (const scheme of descriptor.schemes) {
        const found = kindOf(`${scheme.scheme.toUpperCase()}//exemplo.com.br/`);
        expect(found?.descriptor.kind).toBe(descriptor.kind);
        expect(found?.scheme).toEqual(scheme);
      }
    }
    expect(kindOf('ftp://exemplo.com.br/')).toBeUndefined();
    expect(kindOf('exemplo.com.br')).toBeUndefined();
  });

  it('says which targets are a broker’s, and stores those in canonical form', () => {
    for (const descriptor of KINDS) {
      const scheme = descriptor.schemes[0]!;
      expect(isBrokerUrl(`${scheme.scheme}//exemplo.com.br/`), descriptor.kind).toBe(descriptor.broker);
      if (descriptor.broker) {
        expect(normalizeBrokerUrl(`${scheme.scheme.toUpperCase()}//EXEMPLO.com.br/`)).toBe(`${scheme.scheme}//exemplo.com.br/`);
      }
    }
  });
});
