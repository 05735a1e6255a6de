import type { MessageKey, Messages } from './messages/pt-BR';

/**
 * Translation over one catalog, without importing any: the server picks a catalog by locale
 * (index.ts), the console's client code gets the reader's catalog from the root layout
 * (client.tsx), so the browser never downloads the other language's texts.
 */
export type { MessageKey, Messages };
export type TranslateValues = Record<string, string | number>;
export type Translate = (key: MessageKey, values?: TranslateValues) => string;

/** Fills `{name}` placeholders; an unknown placeholder stays visible so a missing value is noticed. */
export function format(template: string, values: TranslateValues = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

export function translatorOf(messages: Messages): Translate {
  return (key, values) => format(messages[key], values);
}

export function hasMessage(messages: Messages, key: string): key is MessageKey {
  return Object.hasOwn(messages, key);
}
