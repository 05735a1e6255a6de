import 'server-only';
import { refuse } from '@/lib/errors/refusal';
import { clientAddress } from '@/lib/http/client-address';
import { renewedSessionCookies } from '@/lib/auth/staff-session';
import { changeOwnPassword, setPasswordWithToken } from '@/lib/staff/service';
import { changePasswordSchema, setPasswordSchema } from '@/lib/staff/contract';
import { answer } from '@/lib/http/answers';
import { operation } from '@/lib/http/operation';

/** A staff member's own password. */
export const accountOperations = {
  /** The public end of a one-time link: no session, the token is the credential. */
  setPasswordWithLink: operation(
    {
      method: 'POST',
      path: '/api/v1/auth/definir-senha',
      body: setPasswordSchema,
      capability: 'public',
      responses: {
        204: answer.empty('Set; sign in with it.'),
        503: answer.problem('The database is unavailable for a moment; retry after Retry-After seconds.'),
      },
      doc: {
        summary: 'Set a password with a one-time link',
        tags: ['Authentication'],
        security: [],
        description:
          'At least 12 characters, not containing the e-mail’s local part, not among the most common passwords. Every console session of the account ends.',
      },
    },
    async (_request, _params, body) => {
      const { token, senha } = await body();
      await setPasswordWithToken(token, senha);
      return { status: 204 };
    },
  ),
  changeOwnPassword: operation(
    {
      method: 'POST',
      path: '/api/v1/auth/senha',
      body: changePasswordSchema,
      capability: 'account',
      responses: {
        204: answer.empty('Changed. Set-Cookie renews this session’s cookie (same end of life): the old cookie is refused from now on.'),
        429: answer.problem(
          'Too many wrong `senhaAtual`; `errors` names it with a message in the caller’s language. Nothing was checked.',
          { headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds until this session may try again.' } } },
        ),
      },
      doc: {
        summary: 'Change your own password (staff)',
        tags: ['Authentication'],
        security: [{ consoleSession: [] }],
        description:
          'Every other console session of the account ends at its next request (401, or the sign-in page). Wrong `senhaAtual` guesses are throttled: 5 per session and 20 per account in 15 minutes, and they count against the address’s sign-in limit.',
      },
    },
    async ({ request, principal, body }) => {
      if (principal.kind !== 'staff') throw refuse.forbidden();
      const { senhaAtual, novaSenha } = await body();
      const sessionVersion = await changeOwnPassword(principal, senhaAtual, novaSenha, clientAddress(request.headers));
      // Another change ended this very session meanwhile: it is signed out like the others.
      if (sessionVersion === undefined) throw refuse.unauthenticated();
      const cookies = await renewedSessionCookies(request, sessionVersion);
      return { status: 204, headers: cookies.map((cookie): [string, string] => ['Set-Cookie', cookie]) };
    },
  ),
};
