import 'server-only';
import { parseArgs } from 'node:util';
import { env } from '@/lib/config/env';
import { closeDb } from '@/lib/db/handle';
import { brasiliaDateTime } from '@/lib/i18n/brasilia-time';
import { en } from '@/lib/i18n/messages/en';
import { ptBR } from '@/lib/i18n/messages/pt-BR';
import { customMessage, toFieldErrors } from '@/lib/validation/issues';
import { staffCreateSchema } from './contract';
import { makeAdmin } from './first-admin';

/**
 * `npm run create-admin -- --email … [--name …] [--url …] [--password-stdin]` (and, in the
 * container, `node create-admin.mjs …`): the first admin, or a locked-out admin's new link
 * (lib/staff/first-admin.ts). Built into `.next/standalone/create-admin.mjs` by
 * scripts/build-create-admin.mjs, so it runs wherever the server runs, on the same settings.
 * Operators are Brazilian: every line pt-BR first, English after, as in the password e-mail.
 */
export type CommandIo = {
  out(line: string): void;
  err(line: string): void;
  /** Standard input, whole, when it is not a terminal (for --password-stdin). */
  readStdin(): Promise<string | undefined>;
};

const USAGE = [
  'Uso / Usage: npm run create-admin -- --email <e-mail> [--name <nome>] [--url <https://console…>] [--password-stdin]',
  '  (no contêiner / in the container: node create-admin.mjs --email …)',
  '',
  '  --email           e-mail da conta de administrador / the admin account’s e-mail',
  '  --name            nome exibido (padrão: o e-mail antes do @) / display name (default: the e-mail before the @)',
  '  --url             endereço do console no link (padrão: NEXTAUTH_URL ou http://localhost:PORT)',
  '                    / the console’s address in the link (default: NEXTAUTH_URL or http://localhost:PORT)',
  '  --password-stdin  lê a senha da entrada padrão em vez de gerar um link / reads the password from standard input instead of a link',
];

export async function runAdminCommand(argv: string[], io: CommandIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        email: { type: 'string' },
        name: { type: 'string' },
        url: { type: 'string' },
        'password-stdin': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    }).values;
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error));
    USAGE.forEach((line) => io.err(line));
    return 2;
  }
  if (parsed.help) {
    USAGE.forEach((line) => io.out(line));
    return 0;
  }
  if (!parsed.email) {
    io.err('Informe --email. / Give --email.');
    USAGE.forEach((line) => io.err(line));
    return 2;
  }

  const input = { email: parsed.email, nome: parsed.name ?? parsed.email.split('@')[0] ?? '', perfis: ['admin'] };
  const account = staffCreateSchema.safeParse(input);
  if (!account.success) {
    const pt = toFieldErrors(account.error, input, ptBR);
    const english = toFieldErrors(account.error, input, en);
    pt.forEach((error, index) =>
      io.err(`--${error.field === 'nome' ? 'name' : error.field}: ${error.message} / ${english[index]?.message}`),
    );
    return 2;
  }
  let origin: string | undefined;
  try {
    origin = linkOrigin(parsed.url);
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error)); // a bad setting, named (lib/config/env.ts)
    return 1;
  }
  if (!origin) {
    io.err('--url: informe o endereço http(s) do console. / give the console’s http(s) address.');
    return 2;
  }

  let password: string | undefined;
  if (parsed['password-stdin']) {
    const text = await io.readStdin();
    if (text === undefined) {
      io.err('--password-stdin: envie a senha por um pipe, não pelo terminal. / pipe the password in, not from the terminal.');
      return 2;
    }
    password = text.replace(/\r?\n$/, '');
  }

  try {
    const outcome = await makeAdmin({ email: account.data.email, name: account.data.nome, origin, password });
    if (outcome.kind === 'sso-account') {
      io.err(`A conta ${account.data.email} entra pelo provedor de identidade: dê a ela o papel de administrador lá (OIDC_ROLE_MAP).`);
      io.err(`The account ${account.data.email} signs in through the identity provider: give it the admin role there (OIDC_ROLE_MAP).`);
      return 1;
    }
    if (outcome.kind === 'password-rejected') {
      io.err(`Senha recusada: ${customMessage(outcome.violation, ptBR)} / Password refused: ${customMessage(outcome.violation, en)}`);
      return 1;
    }
    const email = account.data.email;
    if (outcome.account === 'created') {
      io.out(`Conta de administrador criada: ${email}`);
      io.out(`Admin account created: ${email}`);
    } else {
      io.out(`A conta ${email} já existia: agora é de administrador e está ativa.`);
      io.out(`The account ${email} existed already: it is now an active admin.`);
    }
    const link = outcome.link;
    if (!link) {
      io.out(`Senha definida: entre em ${origin}/sign-in. / Password set: sign in at ${origin}/sign-in.`);
    } else if (link.entrega === 'email') {
      io.out(`Link para definir a senha enviado para ${email}, válido até ${until(link.expiraEm, 'pt-BR')} (horário de Brasília).`);
      io.out(`A link to set the password was e-mailed to ${email}, valid until ${until(link.expiraEm, 'en')} (Brasília time).`);
    } else {
      if (link.emailFalhou) io.out('O servidor de e-mail não aceitou a mensagem. / The mail server did not take the message.');
      io.out(`Defina a senha por este link, válido uma única vez até ${until(link.expiraEm, 'pt-BR')} (horário de Brasília):`);
      io.out(`Set the password with this link, valid once until ${until(link.expiraEm, 'en')} (Brasília time):`);
      io.out(link.link ?? '');
    }
    return 0;
  } catch (error) {
    // The database unreachable, a bad setting (lib/config/env.ts names it): the reason, no stack.
    io.err(`Não foi possível concluir / Could not finish: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await closeDb().catch(() => undefined);
  }
}

/**
 * The origin the link points at: --url, else NEXTAUTH_URL (as for e-mailed links), else the server
 * on this machine (PORT is the server command's own setting, read by Next, not an app setting).
 */
function linkOrigin(url: string | undefined): string | undefined {
  const candidate = url ?? env().NEXTAUTH_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;
  try {
    const parsed = new URL(candidate);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

function until(iso: string, locale: 'pt-BR' | 'en'): string {
  return brasiliaDateTime(iso, locale);
}

/** Standard input as text, or undefined at a terminal (a typed password would be echoed there). */
export async function readStandardInput(): Promise<string | undefined> {
  if (process.stdin.isTTY) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
