import type { RecentReservation } from './recent-reservations';

/**
 * The reservation form keeps what the operator typed as text; this turns it into the request body
 * that the contract schema validates and the route receives. Text that is not a number stays text,
 * so the schema reports "must be an integer" instead of the form silently dropping it.
 */
export const NUMERIC_FIELDS = [
  'nrSeqAgenda',
  'nrSeqProcInterno',
  'nrMinDuracao',
  'cdPessoaFisica',
  'cdConvenio',
  'cdCategoria',
  'cdPlano',
] as const;

export const TEXT_FIELDS = ['cdUsuarioConvenio', 'nmUsuario'] as const;

type NumericField = (typeof NUMERIC_FIELDS)[number];
type TextField = (typeof TEXT_FIELDS)[number];

export type ReservationFormValues = Record<NumericField | TextField, string> & {
  ieOpcao: 'R' | 'CR';
  ieLado: '' | 'E' | 'D' | 'A';
  tokenReservaCanc: string;
};

export const EMPTY_RESERVATION_FORM: ReservationFormValues = {
  nrSeqAgenda: '',
  nrSeqProcInterno: '',
  ieLado: '',
  nrMinDuracao: '',
  ieOpcao: 'R',
  tokenReservaCanc: '',
  cdPessoaFisica: '',
  cdConvenio: '',
  cdCategoria: '',
  cdPlano: '',
  cdUsuarioConvenio: '',
  nmUsuario: 'console-integracao',
};

const NUMBER_TEXT = /^\s*-?\d+(\.\d+)?\s*$/;

function numberOrText(text: string): number | string | undefined {
  if (text === '') return undefined;
  return NUMBER_TEXT.test(text) ? Number(text) : text;
}

export function toReservationBody(values: ReservationFormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of NUMERIC_FIELDS) body[field] = numberOrText(values[field]);
  for (const field of TEXT_FIELDS) body[field] = values[field] === '' ? undefined : values[field];
  body.ieOpcao = values.ieOpcao;
  if (values.ieLado) body.ieLado = values.ieLado;
  // The token field is shown only for CR; whatever it held before switching to R is not sent.
  if (values.ieOpcao === 'CR') body.tokenReservaCanc = values.tokenReservaCanc === '' ? undefined : values.tokenReservaCanc;
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

/** The release (CR) of the reservation just made with `values`. */
export function releaseOf(values: ReservationFormValues, token: string): ReservationFormValues {
  return { ...values, ieOpcao: 'CR', tokenReservaCanc: token };
}

const text = (value: number | string | null) => (value === null ? '' : String(value));

/**
 * The release of a reservation from the recent list. The trail keeps patient identifiers masked;
 * `known` (what this page itself sent for that token) fills them when available.
 */
export function releaseOfRecent(reservation: RecentReservation, known?: ReservationFormValues): ReservationFormValues {
  if (known) return releaseOf(known, reservation.token);
  const side = reservation.ieLado;
  return {
    ...EMPTY_RESERVATION_FORM,
    ieOpcao: 'CR',
    tokenReservaCanc: reservation.token,
    nrSeqAgenda: text(reservation.nrSeqAgenda),
    nrSeqProcInterno: text(reservation.nrSeqProcInterno),
    nrMinDuracao: text(reservation.nrMinDuracao),
    ieLado: side === 'E' || side === 'D' || side === 'A' ? side : '',
    cdConvenio: text(reservation.cdConvenio),
    cdCategoria: text(reservation.cdCategoria),
    cdPlano: text(reservation.cdPlano),
    nmUsuario: reservation.nmUsuario ?? EMPTY_RESERVATION_FORM.nmUsuario,
  };
}
