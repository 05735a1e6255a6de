import 'server-only';
import oracledb, { type Connection } from 'oracledb';
import { refuse, type Refusal } from '@/lib/errors/refusal';
import { toNumber } from '@/lib/db/dialect';
import type { FreeSlot, FreeSlotQuery } from '../contract';

/**
 * The free-slot listing on Oracle. The contract shows the back-end's slot search only through its
 * NR_SEQ_AGENDA field, so the app does not guess a procedure signature: the DBA exposes the free
 * slots as a view (ORACLE_FREE_SLOTS_VIEW) with the columns NR_SEQ_AGENDA, CD_AGENDA, DT_AGENDA
 * (a DATE in ORACLE_FREE_SLOTS_TIME_ZONE) and NR_MIN_DURACAO, and the app runs one fixed,
 * parameterised query on it. Without a view the listing answers 501.
 */
function freeSlotsQuery(view: string): string {
  const localStart = 'FROM_TZ(CAST(DT_AGENDA AS TIMESTAMP), :tz)';
  const utcBind = (name: string) => `FROM_TZ(TO_TIMESTAMP(:${name}, 'YYYY-MM-DD"T"HH24:MI:SS.FF3'), 'UTC')`;
  return [
    `SELECT NR_SEQ_AGENDA, CD_AGENDA,`,
    `       TO_CHAR(${localStart}, 'YYYY-MM-DD"T"HH24:MI:SSTZH:TZM') AS DT_AGENDA_ISO,`,
    `       NR_MIN_DURACAO`,
    `  FROM ${view}`,
    ` WHERE ${localStart} >= ${utcBind('de')}`,
    `   AND (:ate IS NULL OR ${localStart} <= ${utcBind('ate')})`,
    `   AND (:cd_agenda IS NULL OR CD_AGENDA = :cd_agenda)`,
    ` ORDER BY DT_AGENDA, NR_SEQ_AGENDA`,
    ` FETCH FIRST :limite ROWS ONLY`,
  ].join('\n');
}

/** `2026-05-04T10:00:00.000Z` → `2026-05-04T10:00:00.000`, the UTC wall time the query expects. */
const utcText = (instant: number) => new Date(instant).toISOString().slice(0, 23);

function freeSlotsBinds(query: FreeSlotQuery, timeZone: string, now = Date.now()): Record<string, unknown> {
  return {
    tz: timeZone,
    de: utcText(Math.max(now, query.de ? Date.parse(query.de) : 0)),
    ate: query.ate ? utcText(Date.parse(query.ate)) : null,
    cd_agenda: query.cdAgenda ?? null,
    limite: query.limite,
  };
}

type Row = { NR_SEQ_AGENDA: unknown; CD_AGENDA: unknown; DT_AGENDA_ISO: unknown; NR_MIN_DURACAO: unknown };

export async function listFreeSlotsFromView(
  connection: Connection,
  view: string,
  timeZone: string,
  query: FreeSlotQuery,
): Promise<FreeSlot[]> {
  const result = await connection.execute(freeSlotsQuery(view), freeSlotsBinds(query, timeZone), { outFormat: oracledb.OUT_FORMAT_OBJECT });
  return ((result.rows ?? []) as Row[]).map((row) => ({
    NR_SEQ_AGENDA: toNumber(row.NR_SEQ_AGENDA),
    CD_AGENDA: toNumber(row.CD_AGENDA),
    DT_AGENDA: String(row.DT_AGENDA_ISO),
    NR_MIN_DURACAO: toNumber(row.NR_MIN_DURACAO),
  }));
}

export function noFreeSlotListing(): Refusal {
  return refuse.unsupported(
    'The Oracle scheduling back-end has no free-slot listing configured (ORACLE_FREE_SLOTS_VIEW). Take NR_SEQ_AGENDA from the back-end’s slot search.',
  );
}
