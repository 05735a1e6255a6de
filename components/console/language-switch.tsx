'use client';
import { useRouter } from 'next/navigation';
import { useId, useTransition } from 'react';
import { isLocale, LOCALE_COOKIE, LOCALES } from '@/lib/i18n/locale';
import { useLocale, useT } from '@/lib/i18n/client';

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/** Stores the choice in the `locale` cookie and re-renders the server components in it. */
export function LanguageSwitch() {
  const t = useT();
  const locale = useLocale();
  const router = useRouter();
  const id = useId();
  const [pending, startTransition] = useTransition();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="sr-only">
        {t('header.language')}
      </label>
      <select
        id={id}
        value={locale}
        disabled={pending}
        onChange={(event) => {
          const chosen = event.target.value;
          if (!isLocale(chosen)) return;
          document.cookie = `${LOCALE_COOKIE}=${chosen}; path=/; max-age=${ONE_YEAR_SECONDS}; samesite=lax`;
          startTransition(() => router.refresh());
        }}
        className="h-8 rounded-md border border-slate-300 bg-white px-2 text-sm focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600"
      >
        {LOCALES.map((option) => (
          <option key={option} value={option} lang={option}>
            {t(`locale.${option}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
