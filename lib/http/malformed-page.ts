import { LOCALE_COOKIE, isLocale, translator } from '@/lib/i18n';
import { negotiateLocale } from '@/lib/i18n/locale';

/**
 * A page address that does not percent-decode (`/webhooks/%E0%A4%A`): Next would answer it with a
 * bare text/plain 500 before any page code runs, so the proxy answers this small page instead, with
 * status 400 and a way back. Plain HTML with no script or style: it must render whatever failed.
 */
export function malformedPageResponse(request: Request, home: string, headers: Headers): Response {
  const cookie = new RegExp(`(?:^|;\\s*)${LOCALE_COOKIE}=([^;]*)`).exec(request.headers.get('cookie') ?? '')?.[1];
  const locale = isLocale(cookie) ? cookie : negotiateLocale(request.headers.get('accept-language'));
  const t = translator(locale);
  const html = `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${t('badPath.title')}</title></head><body><main><h1>${t('badPath.title')}</h1><p>${t('badPath.body')}</p><p><a href="${home}">${t('badPath.home')}</a></p></main></body></html>`;
  headers.set('Content-Type', 'text/html; charset=utf-8');
  headers.set('Cache-Control', 'no-store');
  return new Response(html, { status: 400, headers });
}
