import { operations } from '@/lib/api/operations';
import { problems } from '@/lib/http/errors';
import { apiRoute, otherMethodsNotAllowed } from '@/lib/http/route';
import { changePasswordSchema } from '@/lib/staff/contract';
import { changeOwnPassword } from '@/lib/staff/service';

export const dynamic = 'force-dynamic';

export const POST = apiRoute(operations.changeOwnPassword, async ({ principal, json, parse }) => {
  if (principal.kind !== 'staff') throw problems.forbidden();
  const { senhaAtual, novaSenha } = parse(changePasswordSchema, await json());
  await changeOwnPassword(principal, senhaAtual, novaSenha);
  return new Response(null, { status: 204 });
});

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { GET, HEAD, PUT, DELETE, PATCH } = otherMethodsNotAllowed(POST);
