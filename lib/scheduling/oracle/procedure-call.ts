import 'server-only';
import oracledb, { type BindDefinition } from 'oracledb';
import type { SlotReservationRequest } from '../contract';
import { PROCEDURE_INPUTS, PROCEDURE_OUTPUTS, type OracleSchedulingConfig, type ProcedureOutput } from '@/lib/config/oracle';

/**
 * The one statement sent per reservation: an anonymous PL/SQL block calling the configured
 * procedure in named notation. The text depends only on validated configuration (procedure and
 * parameter names passed the identifier check), so it is the same for every request and Oracle
 * parses it once per connection; request values travel only as bind variables.
 */

/**
 * OUT buffer sizes in bytes. A PL/SQL VARCHAR2 holds up to 32767 bytes, and a value longer than its
 * buffer raises ORA-06502 after the procedure has run, turning a done reservation into an error;
 * so the message gets the PL/SQL maximum (Portuguese text is up to 2 bytes a character in UTF-8).
 */
const OUT_MAX_BYTES: Record<ProcedureOutput, number> = {
  IE_RESERVADO_P: 32,
  TOKEN_RESERVA_P: 4000,
  CODIGO_P: 64,
  MENSAGEM_P: 32767,
};

/** Bind variable of each parameter: a fixed name, never derived from configuration or input. */
const bindName = (parameter: string) => `b_${parameter.toLowerCase()}`;

export function procedureBlock(config: Pick<OracleSchedulingConfig, 'procedure' | 'parameterNames'>): string {
  const lines = [...PROCEDURE_INPUTS, ...PROCEDURE_OUTPUTS].map(
    (parameter) => `    ${config.parameterNames[parameter]} => :${bindName(parameter)}`,
  );
  return `BEGIN\n  ${config.procedure}(\n${lines.join(',\n')}\n  );\nEND;`;
}

const NUMERIC_INPUTS = new Set([
  'nrSeqAgenda',
  'nrSeqProcInterno',
  'nrMinDuracao',
  'cdPessoaFisica',
  'cdConvenio',
  'cdCategoria',
  'cdPlano',
]);

export function procedureBinds(request: SlotReservationRequest): Record<string, BindDefinition> {
  const binds: Record<string, BindDefinition> = {};
  for (const input of PROCEDURE_INPUTS) {
    const value = request[input];
    binds[bindName(input)] = {
      dir: oracledb.BIND_IN,
      type: NUMERIC_INPUTS.has(input) ? oracledb.NUMBER : oracledb.STRING,
      // ieLado and tokenReservaCanc are sent only when they apply (§4.2 rules 2 and 3): NULL otherwise.
      val: value ?? null,
    };
  }
  for (const output of PROCEDURE_OUTPUTS) {
    binds[bindName(output)] = { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: OUT_MAX_BYTES[output] };
  }
  return binds;
}

export type RawProcedureOutputs = Partial<Record<string, string | null>>;

/** The OUT binds by contract name; Oracle returns '' as NULL, so NULL reads back as ''. */
export function readOutputs(outBinds: RawProcedureOutputs | undefined): Record<ProcedureOutput, string> {
  const read = (output: ProcedureOutput) => {
    const value = outBinds?.[bindName(output)];
    return value === null || value === undefined ? '' : String(value);
  };
  return {
    IE_RESERVADO_P: read('IE_RESERVADO_P').trim(),
    TOKEN_RESERVA_P: read('TOKEN_RESERVA_P').trim(),
    CODIGO_P: read('CODIGO_P').trim(),
    MENSAGEM_P: read('MENSAGEM_P'),
  };
}
