/**
 * One value per locale, made on first use: for Intl objects, which cost far more to make than to
 * use (and the first one a page makes loads the browser's locale data).
 */
export function perLocale<T>(make: (locale: string) => T): (locale: string) => T {
  const made = new Map<string, T>();
  return (locale) => {
    let value = made.get(locale);
    if (value === undefined) made.set(locale, (value = make(locale)));
    return value;
  };
}
