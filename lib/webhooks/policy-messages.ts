import { registerIssueMessages } from '@/lib/validation/issues';
import { MAX_HEADER_VALUE_BYTES, MAX_HEADERS_TOTAL_BYTES } from './header-policy';
import { MAX_WEBHOOK_URL_LENGTH } from './url-policy';

/**
 * Field messages of the URL and header policies, in the console's two languages. Imported by the
 * contract, so the API and the forms register them the moment either loads the schema.
 */
registerIssueMessages({
  'pt-BR': {
    urlTooLong: `A URL deve ter no máximo ${MAX_WEBHOOK_URL_LENGTH} caracteres.`,
    urlInvalid: 'Informe uma URL absoluta, por exemplo https://receptor.exemplo.com.br/webhooks.',
    urlUnsafeCharacters: 'A URL não pode conter espaços, caracteres de controle nem barra invertida.',
    urlScheme: 'A URL deve começar com https://.',
    urlHttpsRequired: 'Use https://: http sem criptografia não é permitido neste ambiente.',
    urlCredentials: 'Não coloque usuário ou senha na URL; use um cabeçalho personalizado.',
    urlPrivateTarget: 'A URL aponta para um endereço local, privado ou de metadados de nuvem, que não é permitido.',
    headerNameToken: "Nome de cabeçalho inválido: use apenas letras, dígitos e ! # $ % & ' * + - . ^ _ ` | ~ (sem espaços).",
    headerNameReserved: 'Este cabeçalho é controlado pelo envio do webhook e não pode ser personalizado.',
    headerDuplicate: 'Cabeçalho repetido (maiúsculas e minúsculas não diferenciam).',
    headerValueLineBreak: 'O valor não pode conter quebras de linha (CR/LF) nem o caractere NUL.',
    headerValueControl: 'O valor não pode conter caracteres de controle.',
    headerValueTooLong: `O valor deve ter no máximo ${MAX_HEADER_VALUE_BYTES} bytes (UTF-8).`,
  },
  en: {
    urlTooLong: `The URL must have at most ${MAX_WEBHOOK_URL_LENGTH} characters.`,
    urlInvalid: 'Enter an absolute URL, for example https://receiver.example.com/webhooks.',
    urlUnsafeCharacters: 'The URL must not contain spaces, control characters or backslashes.',
    urlScheme: 'The URL must start with https://.',
    urlHttpsRequired: 'Use https://: unencrypted http is not allowed in this environment.',
    urlCredentials: 'Do not put a user name or password in the URL; use a custom header.',
    urlPrivateTarget: 'The URL points to a local, private or cloud-metadata address, which is not allowed.',
    headerNameToken: "Invalid header name: use only letters, digits and ! # $ % & ' * + - . ^ _ ` | ~ (no spaces).",
    headerNameReserved: 'This header is set by the webhook delivery and cannot be customized.',
    headerDuplicate: 'Repeated header (names are case-insensitive).',
    headerValueLineBreak: 'The value must not contain line breaks (CR/LF) or the NUL character.',
    headerValueControl: 'The value must not contain control characters.',
    headerValueTooLong: `The value must have at most ${MAX_HEADER_VALUE_BYTES} bytes (UTF-8).`,
  },
});

registerIssueMessages({
  'pt-BR': {
    headersTooLarge: `Os cabeçalhos juntos devem ter no máximo ${MAX_HEADERS_TOTAL_BYTES} bytes; servidores HTTP recusam blocos maiores.`,
  },
  en: {
    headersTooLarge: `All headers together must have at most ${MAX_HEADERS_TOTAL_BYTES} bytes; HTTP servers refuse larger header blocks.`,
  },
});
