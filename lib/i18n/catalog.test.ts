import { describe, expect, it } from 'vitest';
import { format, messagesFor, translator } from './index';
import { ptBR } from './messages/pt-BR';
import { en } from './messages/en';

/** The values a message takes: `{name}` and the number of `{name, plural, …}`, each once. */
const placeholders = (text: string) => [...new Set([...text.matchAll(/\{(\w+)(?:\}|,\s*plural,)/g)].map((match) => match[1]))].sort();

describe('message catalogs', () => {
  it('English has exactly the keys of pt-BR', () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(ptBR).sort());
  });

  it('every translation uses the same placeholders as pt-BR, and none is empty', () => {
    for (const [key, text] of Object.entries(ptBR)) {
      const english = en[key as keyof typeof en];
      expect(placeholders(english), key).toEqual(placeholders(text));
      expect(text.trim(), key).not.toBe('');
      expect(english.trim(), key).not.toBe('');
    }
  });

  it('has a one-line explanation for every CODIGO_P of §7.2 in both languages', () => {
    for (const codigo of ['0', '1', '2', '3', '4', '5', '9']) {
      for (const locale of ['pt-BR', 'en'] as const) {
        const messages = messagesFor(locale) as Record<string, string>;
        expect(messages[`outcome.code.${codigo}.title`], `${locale} ${codigo}`).toBeTruthy();
        expect(messages[`outcome.code.${codigo}.body`], `${locale} ${codigo}`).toBeTruthy();
      }
    }
  });
});

describe('format', () => {
  it('fills placeholders and leaves unknown ones visible', () => {
    expect(format('{a} de {b}', { a: 1, b: 'cinco' })).toBe('1 de cinco');
    expect(format('Olá {nome}', {})).toBe('Olá {nome}');
  });

  it('picks the plural form by the language’s rules, an exact =n first', () => {
    const message = '{n, plural, =0 {nenhum item} one {# item} other {# itens de {dono}}}';
    expect(format(message, { n: 0, dono: 'Ana' }, 'pt-BR')).toBe('nenhum item');
    expect(format(message, { n: 1, dono: 'Ana' }, 'pt-BR')).toBe('1 item');
    expect(format(message, { n: 3, dono: 'Ana' }, 'pt-BR')).toBe('3 itens de Ana');
    // Portuguese counts 0 as singular (CLDR), English as plural.
    expect(format('{n, plural, one {# item} other {# items}}', { n: 0 }, 'en')).toBe('0 items');
    expect(format('{n, plural, one {# item} other {# itens}}', { n: 0 }, 'pt-BR')).toBe('0 item');
    expect(format('{n, plural, one {# item} other {# itens}}', {}, 'pt-BR')).toBe('{n, plural, one {# item} other {# itens}}');
    // `#` is written the language's way.
    expect(format('{n, plural, one {# item} other {# itens}}', { n: 2048 }, 'pt-BR')).toBe('2.048 itens');
    expect(format('{n, plural, one {# item} other {# items}}', { n: 2048 }, 'en')).toBe('2,048 items');
  });

  it('words list sizes grammatically in both languages', () => {
    expect(translator('pt-BR')('validation.tooSmallArray', { min: 1 })).toBe('Deve ter pelo menos 1 item.');
    expect(translator('pt-BR')('validation.tooSmallArray', { min: 2 })).toBe('Deve ter pelo menos 2 itens.');
    expect(translator('en')('validation.tooSmallArray', { min: 1 })).toBe('Must have at least 1 item.');
    expect(translator('en')('validation.tooBigArray', { max: 20 })).toBe('Must have at most 20 items.');
    expect(translator('pt-BR')('delivery.attempts', { count: 1 })).toBe('1 tentativa');
    expect(translator('pt-BR')('delivery.attempts', { count: 2 })).toBe('2 tentativas');
  });

  it('has no “(s)” or “(ões)” plurals: counts use plural forms', () => {
    for (const locale of ['pt-BR', 'en'] as const) {
      for (const [key, text] of Object.entries(messagesFor(locale))) expect(text, `${locale} ${key}`).not.toMatch(/\w\((s|es|ões)\)/);
    }
  });

  it('gives every plural an `other` form', () => {
    for (const locale of ['pt-BR', 'en'] as const) {
      for (const [key, text] of Object.entries(messagesFor(locale))) {
        if (text.includes(', plural,')) expect(text, `${locale} ${key}`).toMatch(/other \{/);
      }
    }
  });

  it('translates in the chosen locale', () => {
    expect(translator('pt-BR')('header.signedInAs', { name: 'Ana' })).toBe('Conectado como Ana');
    expect(translator('en')('header.signedInAs', { name: 'Ana' })).toBe('Signed in as Ana');
  });
});
