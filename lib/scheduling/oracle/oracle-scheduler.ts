import 'server-only';
import type { Connection, Pool } from 'oracledb';
import { log } from '@/lib/log';
import type { FreeSlot, FreeSlotQuery, SlotReservationRequest } from '../contract';
import {
  BackendContractError,
  BackendUnavailableError,
  type ProcedureAnswer,
  type ProcedureCallContext,
  type SchedulingBackend,
} from '../backend';
import type { OracleSchedulingConfig } from '@/lib/config/oracle';
import { classifyAcquireFailure, classifyCallFailure, oracleErrorFields, type OracleFailure } from './failures';
import { procedureBinds, procedureBlock, readOutputs, type RawProcedureOutputs } from './procedure-call';
import { listFreeSlotsFromView, noFreeSlotListing } from './free-slots';

/**
 * The hospital's scheduling procedure on Oracle as a SchedulingBackend. One round trip per
 * request: the procedure call and its commit (autoCommit) travel together. The procedure owns its
 * locking and rules; the adapter maps transport failures and never retries a call that may have
 * reached the database.
 */
export class OracleScheduler implements SchedulingBackend {
  readonly name = 'oracle' as const;
  /** The hospital's procedure keeps no owner quota: the service counts holds in its read model. */
  readonly enforcesHoldQuota = false;
  /** The hospital's database is not the app's: the service records each answer after it. */
  readonly recordsInItsTransaction = false;
  private readonly block: string;

  constructor(
    private readonly config: OracleSchedulingConfig,
    private readonly pool: () => Promise<Pool>,
  ) {
    this.block = procedureBlock(config);
  }

  async reserveOrRelease(request: SlotReservationRequest, context: ProcedureCallContext): Promise<ProcedureAnswer> {
    const action = request.ieOpcao === 'R' ? 'reservar' : 'cancelar-reserva';
    const acquired = await this.acquire(action, context.clientId);
    if ('failure' in acquired) return this.failed(acquired.failure, action, acquired.error);

    const connection = acquired.connection;
    let drop = false;
    try {
      const result = await connection.execute<RawProcedureOutputs>(this.block, procedureBinds(request), { autoCommit: true });
      return this.interpret(readOutputs(result.outBinds));
    } catch (error) {
      if (error instanceof BackendContractError) throw error;
      const failure = classifyCallFailure(error);
      drop = failure === 'uncertain'; // a cut connection must not go back into the pool
      return this.failed(failure, action, error);
    } finally {
      await release(connection, drop);
    }
  }

  async listFreeSlots(query: FreeSlotQuery, context?: ProcedureCallContext): Promise<FreeSlot[]> {
    if (!this.config.freeSlotsView) throw noFreeSlotListing();
    const acquired = await this.acquire('slots-livres', context?.clientId ?? '');
    if ('failure' in acquired) {
      this.failed(acquired.failure, 'slots-livres', acquired.error);
      throw new BackendUnavailableError(this.config.retryAfterSeconds);
    }
    try {
      return await listFreeSlotsFromView(acquired.connection, this.config.freeSlotsView, this.config.freeSlotsTimeZone, query);
    } finally {
      await release(acquired.connection, false);
    }
  }

  /** Readiness: a connection from the pool answers a round trip within callTimeout. */
  async checkReady(): Promise<void> {
    const acquired = await this.acquire('readiness', '');
    if ('failure' in acquired) throw acquired.error;
    try {
      await acquired.connection.ping();
    } finally {
      await release(acquired.connection, false);
    }
  }

  private async acquire(
    action: string,
    clientId: string,
  ): Promise<{ connection: Connection } | { failure: OracleFailure; error: unknown }> {
    try {
      const connection = await (await this.pool()).getConnection();
      // Tags for the DBA (V$SESSION.MODULE/ACTION/CLIENT_IDENTIFIER), sent with the next round trip.
      connection.module = this.config.module;
      connection.action = action;
      connection.clientId = clientId.slice(0, 64);
      connection.callTimeout = this.config.callTimeoutMs;
      return { connection };
    } catch (error) {
      return { failure: classifyAcquireFailure(error), error };
    }
  }

  private interpret(outputs: ReturnType<typeof readOutputs>): ProcedureAnswer {
    const reserved = outputs.IE_RESERVADO_P === '' ? 'N' : outputs.IE_RESERVADO_P;
    if (reserved !== 'S' && reserved !== 'N') throw new BackendContractError('IE_RESERVADO_P');
    if (outputs.CODIGO_P === '0' && (reserved !== 'S' || outputs.TOKEN_RESERVA_P === '')) {
      throw new BackendContractError('TOKEN_RESERVA_P'); // §4.2: a reservation always carries its token
    }
    return { ...outputs, IE_RESERVADO_P: reserved };
  }

  private failed(failure: OracleFailure, action: string, error: unknown): ProcedureAnswer {
    log.error('scheduling.oracle_call_failed', { action, failure, ...oracleErrorFields(error) });
    const answer: ProcedureAnswer = { IE_RESERVADO_P: 'N', TOKEN_RESERVA_P: '', CODIGO_P: '9', MENSAGEM_P: '' };
    if (failure === 'busy' || failure === 'unreachable') {
      return { ...answer, failure: { kind: 'unavailable', retryAfterSeconds: this.config.retryAfterSeconds } };
    }
    return { ...answer, failure: { kind: failure } };
  }
}

async function release(connection: Connection, drop: boolean): Promise<void> {
  try {
    await connection.close(drop ? { drop: true } : undefined);
  } catch (error) {
    log.warn('scheduling.oracle_release_failed', oracleErrorFields(error));
  }
}
