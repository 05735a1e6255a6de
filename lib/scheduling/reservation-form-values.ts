import type { Procedure } from './contract';
import type { RecentReservation } from './recent-reservations';

/**
 * The reservation form keeps what the operator typed as text; this turns it into the request body
 * that the contract schema validates and the route receives. Text that is not a number stays text,
 * so the schema reports "must be an integer" instead of the form silently dropping it.
 */
const NUMERIC_FIELDS = [
  'nrSeqAgenda',
  'nrSeqProcInterno',
  'nrMinDuracao',
  'cdPessoaFisica',
  'cdConvenio',
  'cdCategoria',
  'cdPlano',
] as const;

const TEXT_FIELDS = ['cdUsuarioConvenio', 'nmUsuario'] as const;

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

/** The listed exam the form's nrSeqProcInterno names, if any. */
export function chosenProcedure(
  values: Pick<ReservationFormValues, 'nrSeqProcInterno'>,
  procedures: readonly Procedure[],
): Procedure | undefined {
  const code = values.nrSeqProcInterno.trim();
  return code === '' ? undefined : procedures.find((procedure) => String(procedure.NR_SEQ_PROC_INTERNO) === code);
}

/**
 * A reservation (R) of a listed exam that needs a side, sent without ieLado: the server would
 * answer 400 sideRequired, so the form says it first. A release (CR) does not look at the exam.
 */
export function missingRequiredSide(values: ReservationFormValues, procedures: readonly Procedure[]): boolean {
  return values.ieOpcao === 'R' && values.ieLado === '' && chosenProcedure(values, procedures)?.IE_LADO_OBRIGATORIO === 'S';
}

/** Who last filled nrMinDuracao automatically, and with what. */
export type DurationOrigin = { source: 'slot' | 'exam'; value: string };

/**
 * nrMinDuracao after an exam is chosen: its usual duration when the field is empty or still holds
 * the previous exam's; a value typed by the operator or set by a picked slot (which fits the
 * agenda's grid) is kept, and the form shows the exam's usual duration beside it instead.
 */
export function durationForExam(current: string, origin: DurationOrigin | undefined, procedure: Procedure): string | undefined {
  const untouched = current.trim() === '' || (origin?.source === 'exam' && origin.value === current);
  return untouched ? String(procedure.NR_MIN_DURACAO) : undefined;
}
