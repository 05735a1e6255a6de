import { z } from 'zod';

/**
 * Settings of the Oracle scheduling back-end (SCHEDULING_BACKEND=oracle), validated with the rest
 * of the configuration in lib/config/env.ts. Every SQL identifier the adapter writes into its
 * PL/SQL text comes from here and has passed ORACLE_IDENTIFIER: nothing from a request is ever
 * spliced into SQL; request values travel as bind variables only.
 */

/** A nonquoted Oracle identifier: a letter, then letters, digits, `_`, `$`, `#`; at most 128 bytes. */
const SIMPLE_IDENTIFIER = /^[A-Za-z][A-Za-z0-9_$#]{0,127}$/;
/** A procedure or view name, optionally schema- and package-qualified: `PROC`, `PKG.PROC`, `OWNER.PKG.PROC`. */
const QUALIFIED_IDENTIFIER = /^[A-Za-z][A-Za-z0-9_$#]{0,127}(\.[A-Za-z][A-Za-z0-9_$#]{0,127}){0,2}$/;

function isOracleIdentifier(value: string): boolean {
  return SIMPLE_IDENTIFIER.test(value);
}

/** The procedure's formal parameters, in the order they are written in the call. */
export const PROCEDURE_INPUTS = [
  'nrSeqAgenda',
  'nrSeqProcInterno',
  'ieLado',
  'nrMinDuracao',
  'ieOpcao',
  'tokenReservaCanc',
  'cdPessoaFisica',
  'cdConvenio',
  'cdCategoria',
  'cdPlano',
  'cdUsuarioConvenio',
  'nmUsuario',
] as const;
export const PROCEDURE_OUTPUTS = ['IE_RESERVADO_P', 'TOKEN_RESERVA_P', 'CODIGO_P', 'MENSAGEM_P'] as const;

export type ProcedureInput = (typeof PROCEDURE_INPUTS)[number];
export type ProcedureOutput = (typeof PROCEDURE_OUTPUTS)[number];
export type ProcedureParameter = ProcedureInput | ProcedureOutput;

/** Tasy's naming: the contract field in upper snake case with `_P`; outputs keep the contract's names. */
export const DEFAULT_PARAMETER_NAMES: Record<ProcedureParameter, string> = {
  nrSeqAgenda: 'NR_SEQ_AGENDA_P',
  nrSeqProcInterno: 'NR_SEQ_PROC_INTERNO_P',
  ieLado: 'IE_LADO_P',
  nrMinDuracao: 'NR_MIN_DURACAO_P',
  ieOpcao: 'IE_OPCAO_P',
  tokenReservaCanc: 'TOKEN_RESERVA_CANC_P',
  cdPessoaFisica: 'CD_PESSOA_FISICA_P',
  cdConvenio: 'CD_CONVENIO_P',
  cdCategoria: 'CD_CATEGORIA_P',
  cdPlano: 'CD_PLANO_P',
  cdUsuarioConvenio: 'CD_USUARIO_CONVENIO_P',
  nmUsuario: 'NM_USUARIO_P',
  IE_RESERVADO_P: 'IE_RESERVADO_P',
  TOKEN_RESERVA_P: 'TOKEN_RESERVA_P',
  CODIGO_P: 'CODIGO_P',
  MENSAGEM_P: 'MENSAGEM_P',
};

export type OracleSchedulingConfig = {
  connectString: string;
  user?: string;
  password?: string;
  /** Thick mode only: credentials from a Secure External Password Store wallet. */
  externalAuth: boolean;
  walletLocation?: string;
  walletPassword?: string;
  /** Folder with tnsnames.ora / sqlnet.ora (TNS_ADMIN). */
  configDir?: string;
  clientMode: 'thin' | 'thick';
  clientLibDir?: string;
  procedure: string;
  parameterNames: Record<ProcedureParameter, string>;
  poolSize: number;
  connectTimeoutSeconds: number;
  callTimeoutMs: number;
  queueTimeoutMs: number;
  queueMax: number;
  expireTimeMinutes: number;
  drainSeconds: number;
  retryAfterSeconds: number;
  module: string;
  freeSlotsView?: string;
  freeSlotsTimeZone: string;
};

const intSetting = (min: number, max: number, fallback: number) => z.coerce.number().int().min(min).max(max).default(fallback);

/** The ORACLE_* variables; merged into the app's environment schema. */
export const oracleEnvShape = {
  ORACLE_CONNECT_STRING: z.string().min(1).optional(),
  ORACLE_USER: z.string().min(1).optional(),
  ORACLE_PASSWORD: z.string().min(1).optional(),
  ORACLE_EXTERNAL_AUTH: z.enum(['true', 'false']).default('false'),
  ORACLE_WALLET_LOCATION: z.string().min(1).optional(),
  ORACLE_WALLET_PASSWORD: z.string().min(1).optional(),
  ORACLE_CONFIG_DIR: z.string().min(1).optional(),
  ORACLE_CLIENT_MODE: z.enum(['thin', 'thick']).default('thin'),
  ORACLE_CLIENT_LIB_DIR: z.string().min(1).optional(),
  ORACLE_PROCEDURE: z
    .string()
    .regex(QUALIFIED_IDENTIFIER, 'must be a plain identifier, optionally qualified (PROC, PKG.PROC or OWNER.PKG.PROC)')
    .optional(),
  ORACLE_PARAM_NAMES: z.string().optional(),
  ORACLE_POOL_SIZE: intSetting(1, 200, 4),
  ORACLE_CONNECT_TIMEOUT_SECONDS: intSetting(1, 120, 10),
  ORACLE_CALL_TIMEOUT_MS: intSetting(100, 600_000, 20_000),
  ORACLE_QUEUE_TIMEOUT_MS: intSetting(1, 600_000, 5_000),
  ORACLE_QUEUE_MAX: intSetting(1, 100_000, 100),
  ORACLE_EXPIRE_TIME_MINUTES: intSetting(0, 1_440, 2),
  ORACLE_DRAIN_SECONDS: intSetting(0, 600, 10),
  ORACLE_RETRY_AFTER_SECONDS: intSetting(1, 3_600, 5),
  ORACLE_MODULE: z.string().min(1).max(48).default('integration-console'),
  ORACLE_FREE_SLOTS_VIEW: z
    .string()
    .regex(QUALIFIED_IDENTIFIER, 'must be a plain identifier, optionally qualified (VIEW or OWNER.VIEW)')
    .optional(),
  ORACLE_FREE_SLOTS_TIME_ZONE: z.string().default('America/Sao_Paulo'),
};

type OracleEnv = z.infer<z.ZodObject<typeof oracleEnvShape>> & { SCHEDULING_BACKEND: string };

/** Settings that only matter for the Oracle back-end; reported as issues on the variable's name. */
export function checkOracleEnv(value: OracleEnv, ctx: z.RefinementCtx): void {
  if (value.SCHEDULING_BACKEND !== 'oracle') return;
  const missing = (name: keyof OracleEnv, why: string) => ctx.addIssue({ code: 'custom', path: [name], message: why });
  if (!value.ORACLE_CONNECT_STRING) missing('ORACLE_CONNECT_STRING', 'is required when SCHEDULING_BACKEND=oracle');
  if (!value.ORACLE_PROCEDURE) missing('ORACLE_PROCEDURE', 'is required when SCHEDULING_BACKEND=oracle');
  if (value.ORACLE_EXTERNAL_AUTH === 'true') {
    if (value.ORACLE_CLIENT_MODE !== 'thick') missing('ORACLE_EXTERNAL_AUTH', 'needs ORACLE_CLIENT_MODE=thick');
  } else {
    if (!value.ORACLE_USER) missing('ORACLE_USER', 'is required when SCHEDULING_BACKEND=oracle (or ORACLE_EXTERNAL_AUTH=true)');
    if (!value.ORACLE_PASSWORD) missing('ORACLE_PASSWORD', 'is required when SCHEDULING_BACKEND=oracle (or ORACLE_EXTERNAL_AUTH=true)');
  }
  if (value.ORACLE_CLIENT_LIB_DIR && value.ORACLE_CLIENT_MODE !== 'thick') {
    missing('ORACLE_CLIENT_LIB_DIR', 'is only used with ORACLE_CLIENT_MODE=thick');
  }
  const names = parseParameterNames(value.ORACLE_PARAM_NAMES);
  if (typeof names === 'string') missing('ORACLE_PARAM_NAMES', names);
  if (!isTimeZone(value.ORACLE_FREE_SLOTS_TIME_ZONE)) missing('ORACLE_FREE_SLOTS_TIME_ZONE', 'is not an IANA time zone');
}

export function oracleConfigFrom(value: OracleEnv): OracleSchedulingConfig {
  const names = parseParameterNames(value.ORACLE_PARAM_NAMES);
  if (typeof names === 'string' || !value.ORACLE_CONNECT_STRING || !value.ORACLE_PROCEDURE) {
    throw new Error('Oracle settings were not validated'); // checkOracleEnv ran first; unreachable
  }
  return {
    connectString: value.ORACLE_CONNECT_STRING,
    user: value.ORACLE_USER,
    password: value.ORACLE_PASSWORD,
    externalAuth: value.ORACLE_EXTERNAL_AUTH === 'true',
    walletLocation: value.ORACLE_WALLET_LOCATION,
    walletPassword: value.ORACLE_WALLET_PASSWORD,
    configDir: value.ORACLE_CONFIG_DIR,
    clientMode: value.ORACLE_CLIENT_MODE,
    clientLibDir: value.ORACLE_CLIENT_LIB_DIR,
    procedure: value.ORACLE_PROCEDURE,
    parameterNames: names,
    poolSize: value.ORACLE_POOL_SIZE,
    connectTimeoutSeconds: value.ORACLE_CONNECT_TIMEOUT_SECONDS,
    callTimeoutMs: value.ORACLE_CALL_TIMEOUT_MS,
    queueTimeoutMs: value.ORACLE_QUEUE_TIMEOUT_MS,
    queueMax: value.ORACLE_QUEUE_MAX,
    expireTimeMinutes: value.ORACLE_EXPIRE_TIME_MINUTES,
    drainSeconds: value.ORACLE_DRAIN_SECONDS,
    retryAfterSeconds: value.ORACLE_RETRY_AFTER_SECONDS,
    module: value.ORACLE_MODULE,
    freeSlotsView: value.ORACLE_FREE_SLOTS_VIEW,
    freeSlotsTimeZone: value.ORACLE_FREE_SLOTS_TIME_ZONE,
  };
}

/**
 * `ORACLE_PARAM_NAMES=nrSeqAgenda=NR_SEQ_AGENDA_P,MENSAGEM_P=DS_MENSAGEM_P`: overrides of the
 * defaults, keyed by contract field (inputs) or output name. Returns the full map, or a message.
 */
export function parseParameterNames(text: string | undefined): Record<ProcedureParameter, string> | string {
  const names = { ...DEFAULT_PARAMETER_NAMES };
  if (!text?.trim()) return names;
  for (const entry of text.split(',')) {
    const [key, name, ...rest] = entry.split('=').map((part) => part.trim());
    if (!key || !name || rest.length > 0) return `entry "${entry.trim()}" is not key=NAME`;
    if (!Object.hasOwn(DEFAULT_PARAMETER_NAMES, key)) {
      return `unknown parameter "${key}"; use one of ${Object.keys(DEFAULT_PARAMETER_NAMES).join(', ')}`;
    }
    if (!isOracleIdentifier(name)) return `"${name}" (for ${key}) is not a plain Oracle identifier`;
    names[key as ProcedureParameter] = name;
  }
  const used = Object.values(names).map((name) => name.toUpperCase());
  const repeated = used.find((name, index) => used.indexOf(name) !== index);
  if (repeated) return `parameter name ${repeated} is used twice`;
  return names;
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
