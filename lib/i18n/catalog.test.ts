import { describe, expect, it } from 'vitest';
import { format, messagesFor, translator } from './index';
import { ptBR } from './messages/pt-BR';
import { en } from './messages/en';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

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

  it('translates in the chosen locale', () => {
    expect(translator('pt-BR')('header.signedInAs', { name: 'Ana' })).toBe('Conectado como Ana');
    expect(translator('en')('header.signedInAs', { name: 'Ana' })).toBe('Signed in as Ana');
  });
});
