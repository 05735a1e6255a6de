/**
 * The reservation contract's fixed values, without zod: the console's first load imports these,
 * and the schemas (contract.ts, which re-exports them) only when a form is checked.
 */
export const IE_OPCAO = ['R', 'CR'] as const;
export const IE_LADO = ['E', 'D', 'A'] as const;
export const TOKEN_RESERVA_MAX = 32;
export const NM_USUARIO_MAX = 30;
/**
 * No exam lasts a working day: a longer nrMinDuracao only serves to take a whole agenda with one
 * request (issue 9). Checked for every back-end; the embedded one also bounds it per exam.
 */
export const MAX_DURATION_MINUTES = 8 * 60;

/** CODIGO_P values of §7.2 and the HTTP status each one maps to. */
export const CODIGO_P_STATUS = {
  '0': 200,
  '1': 200,
  '2': 409,
  '3': 404,
  '4': 409,
  '5': 409,
  '9': 500,
} as const;

export type CodigoP = keyof typeof CODIGO_P_STATUS;
export const CODIGOS_P = Object.keys(CODIGO_P_STATUS) as CodigoP[];

export function isCodigoP(value: string): value is CodigoP {
  return Object.hasOwn(CODIGO_P_STATUS, value);
}
