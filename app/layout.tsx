import type { ReactNode } from 'react';
import { NotReadyReason } from '@/components/ui/not-ready';
import { I18nProvider } from '@/lib/i18n/client';
import { messagesFor } from '@/lib/i18n';
import { getLocale, getT } from '@/lib/i18n/server';
import './globals.css';

export async function generateMetadata() {
  const t = await getT();
  return { title: { default: t('app.name'), template: `%s · ${t('app.name')}` } };
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const [locale, t] = await Promise.all([getLocale(), getT()]);
  return (
    <html lang={locale}>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        <NotReadyReason>{t('common.notReady')}</NotReadyReason>
        <I18nProvider locale={locale} messages={messagesFor(locale)}>
          {children}
        </I18nProvider>
      </body>
    </html>
  );
}
