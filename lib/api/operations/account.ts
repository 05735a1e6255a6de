import 'server-only';
import { problems } from '@/lib/http/errors';
import { clientAddress } from '@/lib/http/client-address';
import { renewedSessionCookies } from '@/lib/auth/staff-session';
import { changeOwnPassword, setPasswordWithToken } from '@/lib/staff/service';
import { ref } from '@/lib/openapi/components';
import { bodyProblems, commonProblems, json, problem } from '@/lib/openapi/fragments';
import { changePasswordSchema, setPasswordSchema } from '@/lib/staff/contract';
import { operation } from '../operation';

/** A staff member's own password. */
export const accountOperations = {
  /** The public end of a one-time link: no session, the token is the credential. */
  setPasswordWithLink: operation(
    {
      method: 'POST',
      path: '/api/v1/auth/definir-senha',
      body: setPasswordSchema,
      capability: 'public',
      doc: {
        summary: 'Set a password with a one-time link',
        tags: ['Autenticação'],
        security: [],
        description:
          'At least 12 characters, not containing the e-mail’s local part, not among the most common passwords. Every console session of the account ends.',
        requestBody: { required: true, content: json(ref(setPasswordSchema)) },
        responses: { '204': { description: 'Set; sign in with it.' }, ...bodyProblems },
      },
    },
    async (_request, _params, body) => {
      const { token, senha } = await body();
      await setPasswordWithToken(token, senha);
      return new Response(null, { status: 204 });
    },
  ),
  changeOwnPassword: operation(
    {
      method: 'POST',
      path: '/api/v1/auth/senha',
      body: changePasswordSchema,
      capability: 'account',
      doc: {
        summary: 'Change your own password (staff)',
        tags: ['Autenticação'],
        security: [{ consoleSession: [] }],
        description:
          'Every other console session of the account ends at its next request (401, or the sign-in page). Wrong `senhaAtual` guesses are throttled: 5 per session and 20 per account in 15 minutes, and they count against the address’s sign-in limit.',
        requestBody: { required: true, content: json(ref(changePasswordSchema)) },
        responses: {
          '204': {
            description: 'Changed. Set-Cookie renews this session’s cookie (same end of life): the old cookie is refused from now on.',
          },
          ...bodyProblems,
          ...commonProblems,
          '429': {
            ...problem('Too many wrong `senhaAtual`; `errors` names it with a message in the caller’s language. Nothing was checked.'),
            headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds until this session may try again.' } },
          },
        },
      },
    },
    async ({ request, principal, body }) => {
      if (principal.kind !== 'staff') throw problems.forbidden();
      const { senhaAtual, novaSenha } = await body();
      const sessionVersion = await changeOwnPassword(principal, senhaAtual, novaSenha, clientAddress(request.headers));
      // Another change ended this very session meanwhile: it is signed out like the others.
      if (sessionVersion === undefined) throw problems.unauthorized();
      const response = new Response(null, { status: 204 });
      for (const cookie of await renewedSessionCookies(request, sessionVersion)) response.headers.append('Set-Cookie', cookie);
      return response;
    },
  ),
};
