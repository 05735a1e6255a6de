import type { ReactNode } from 'react';
import { I18nProvider } from '@/lib/i18n/client';
import { messagesFor } from '@/lib/i18n';
import { getLocale, getT } from '@/lib/i18n/server';
import './globals.css';

export async function generateMetadata() {
  const t = await getT();
  return { title: { default: t('app.name'), template: `%s · ${t('app.name')}` } };
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const locale = await getLocale();
  return (
    <html lang={locale}>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        <I18nProvider locale={locale} messages={messagesFor(locale)}>
          {children}
        </I18nProvider>
      </body>
    </html>
  );
}
