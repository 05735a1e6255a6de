import 'server-only';
import { getDb } from '@/lib/db/handle';
import { dialectOf } from '@/lib/db/dialect';
import { schedulingBackend } from '@/lib/scheduling/backends';
import { oracleErrorCode } from '@/lib/scheduling/oracle/failures';
import { isShuttingDown } from '@/lib/shutdown';

/**
 * Readiness for load balancers: the app database answers a query and the scheduling back-end can
 * be reached, each within CHECK_TIMEOUT_MS, with how long it took. Failures are reported by code
 * only (never driver text, which can name hosts or users).
 */
const CHECK_TIMEOUT_MS = 5_000;

export type CheckResult = { ok: boolean; ms: number; erro?: string };
export type Readiness = {
  ready: boolean;
  /** Set while the process drains for a deploy: not ready, whatever the checks say. */
  stopping?: true;
  /** As the readiness endpoint answers them: the app database and the scheduling back-end (its `sistema`). */
  verificacoes: { bancoDeDados: CheckResult & { dialeto?: string }; agendamento: CheckResult & { sistema?: string } };
};

export async function readiness(): Promise<Readiness> {
  let dialect: string | undefined;
  let backend: string | undefined;
  const [database, scheduling] = await Promise.all([
    timed(async () => {
      const db = await getDb();
      dialect = dialectOf(db);
      await db('app_meta').select('meta_key').limit(1);
    }),
    timed(async () => {
      const scheduler = schedulingBackend();
      backend = scheduler.name;
      await scheduler.checkReady?.();
    }),
  ]);
  const stopping = isShuttingDown();
  return {
    ready: database.ok && scheduling.ok && !stopping,
    ...(stopping ? { stopping } : {}),
    verificacoes: { bancoDeDados: { ...database, dialeto: dialect }, agendamento: { ...scheduling, sistema: backend } },
  };
}

async function timed(check: () => Promise<void>): Promise<CheckResult> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return { ok: true, ms: elapsed(started) };
  } catch (error) {
    return { ok: false, ms: elapsed(started), erro: failureCode(error) };
  } finally {
    clearTimeout(timer);
  }
}

const elapsed = (started: number) => Math.round((performance.now() - started) * 10) / 10;

function failureCode(error: unknown): string {
  if (error instanceof Error && error.message === 'timeout') return 'timeout';
  const code = oracleErrorCode(error) ?? (error as { code?: unknown })?.code;
  return typeof code === 'string' && /^[A-Z0-9_-]{1,20}$/i.test(code) ? code : 'unavailable';
}
