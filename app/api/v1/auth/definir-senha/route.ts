import { operations } from '@/lib/api/operations';
import { env } from '@/lib/config/env';
import { readJsonBody } from '@/lib/http/body';
import { otherMethodsNotAllowed, parseOrThrow, publicRoute } from '@/lib/http/route';
import { negotiateLocale } from '@/lib/i18n/locale';
import { setPasswordSchema } from '@/lib/staff/contract';
import { setPasswordWithToken } from '@/lib/staff/service';

export const dynamic = 'force-dynamic';

/** The public end of a one-time link: no session, the token is the credential. */
export const POST = publicRoute(operations.setPasswordWithLink, async (request) => {
  const { token, senha } = parseOrThrow(
    setPasswordSchema,
    await readJsonBody(request, env().MAX_BODY_BYTES),
    negotiateLocale(request.headers.get('accept-language')),
  );
  await setPasswordWithToken(token, senha);
  return new Response(null, { status: 204 });
});

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { GET, HEAD, PUT, DELETE, PATCH } = otherMethodsNotAllowed(POST);
