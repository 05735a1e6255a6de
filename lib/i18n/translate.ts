import type { MessageKey, Messages } from './messages/pt-BR';
import { formatNumber } from './numbers';
import { perLocale } from './per-locale';

/**
 * Translation over one catalog, without importing any: the server picks a catalog by locale
 * (index.ts), the console's client code gets the reader's catalog from the root layout
 * (client.tsx), so the browser never downloads the other language's texts.
 */
export type { MessageKey, Messages };
export type TranslateValues = Record<string, string | number>;
export type Translate = (key: MessageKey, values?: TranslateValues) => string;

/**
 * Fills a message: `{name}` takes a value as it is, and `{name, plural, =0 {…} one {# item} other
 * {# itens}}` picks the form that fits the number (ICU MessageFormat's plural, the subset the
 * catalogs use): an exact `=n` first, then the language's category (Intl.PluralRules: Portuguese
 * counts 0 and 1 as `one`, English only 1), then `other`; `#` is the number written the
 * language's way (1.234 / 1,234). A placeholder without its value stays visible, so a missing
 * value is noticed.
 */
export function format(template: string, values: TranslateValues = {}, locale = 'pt-BR'): string {
  let result = '';
  let index = 0;
  while (index < template.length) {
    const open = template.indexOf('{', index);
    const close = open === -1 ? -1 : matchingBrace(template, open);
    if (close === -1) return result + template.slice(index);
    result += template.slice(index, open) + fill(template.slice(open, close + 1), values, locale);
    index = close + 1;
  }
  return result;
}

/** One `{…}` of a message, braces included. */
function fill(placeholder: string, values: TranslateValues, locale: string): string {
  const inner = placeholder.slice(1, -1);
  if (/^\w+$/.test(inner)) return inner in values ? String(values[inner]) : placeholder;
  const plural = /^(\w+),\s*plural,([\s\S]*)$/.exec(inner);
  const count = plural ? values[plural[1]!] : undefined;
  if (!plural || typeof count !== 'number') return placeholder;
  const forms = pluralForms(plural[2]!);
  const form = forms.get(`=${count}`) ?? forms.get(pluralRules(locale).select(count)) ?? forms.get('other');
  return form === undefined ? placeholder : format(form.replaceAll('#', formatNumber(count, locale)), values, locale);
}

/** `=0 {…} one {…} other {…}` as selector → text. */
function pluralForms(text: string): Map<string, string> {
  const forms = new Map<string, string>();
  let index = 0;
  for (;;) {
    const selector = /^\s*(=\d+|\w+)\s*\{/.exec(text.slice(index));
    if (!selector) return forms;
    const open = index + selector[0].length - 1;
    const close = matchingBrace(text, open);
    if (close === -1) return forms;
    forms.set(selector[1]!, text.slice(open + 1, close));
    index = close + 1;
  }
}

function matchingBrace(text: string, open: number): number {
  let depth = 0;
  for (let index = open; index < text.length; index++) {
    if (text[index] === '{') depth++;
    else if (text[index] === '}' && --depth === 0) return index;
  }
  return -1;
}

const pluralRules = perLocale((locale) => new Intl.PluralRules(locale));

/** A catalog names its own language (`catalog.locale`): plural forms follow that language's rules. */
export function translatorOf(messages: Messages): Translate {
  return (key, values) => format(messages[key], values, messages['catalog.locale']);
}

export function hasMessage(messages: Messages, key: string): key is MessageKey {
  return Object.hasOwn(messages, key);
}
