import 'server-only';
import { problems } from '@/lib/http/errors';
import { changeOwnPassword, setPasswordWithToken } from '@/lib/staff/service';
import { ref } from '@/lib/openapi/components';
import { bodyProblems, commonProblems, json } from '@/lib/openapi/fragments';
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
        description: 'At least 12 characters, not containing the e-mail’s local part, not among the most common passwords.',
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
        requestBody: { required: true, content: json(ref(changePasswordSchema)) },
        responses: { '204': { description: 'Changed.' }, ...bodyProblems, ...commonProblems },
      },
    },
    async ({ principal, body }) => {
      if (principal.kind !== 'staff') throw problems.forbidden();
      const { senhaAtual, novaSenha } = await body();
      await changeOwnPassword(principal, senhaAtual, novaSenha);
      return new Response(null, { status: 204 });
    },
  ),
};
