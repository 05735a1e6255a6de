import 'server-only';
import { cookies, headers } from 'next/headers';
import { negotiateLocale } from './locale';
import { isLocale, LOCALE_COOKIE, translator, type Locale, type Translate } from './index';

/** The reader's language: the `locale` cookie set by the language switch, else Accept-Language. */
export async function getLocale(): Promise<Locale> {
  const chosen = (await cookies()).get(LOCALE_COOKIE)?.value;
  if (isLocale(chosen)) return chosen;
  return negotiateLocale((await headers()).get('accept-language'));
}

export async function getT(): Promise<Translate> {
  return translator(await getLocale());
}
