import type { Connection, Pool } from 'oracledb';

/**
 * A stand-in for a node-oracledb pool and connection, for the adapter's unit tests only: it
 * records what the adapter sends (SQL text, binds, options, session tags, how the connection is
 * given back) and plays back an answer or an error.
 */
export type Played = { outBinds?: Record<string, string | null>; rows?: unknown[] } | { error: Error };

export type ExecutedCall = {
  sql: string;
  binds: Record<string, unknown>;
  options: unknown;
  tags: { module: string; action: string; clientId: string; callTimeout: number };
};

export function oracleError(code: string, message = 'simulated'): Error {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}

export class FakeOraclePool {
  readonly executed: ExecutedCall[] = [];
  readonly closed: Array<{ drop?: boolean } | undefined> = [];
  pings = 0;
  acquireError: Error | undefined;
  private readonly script: Played[] = [];

  play(...answers: Played[]): this {
    this.script.push(...answers);
    return this;
  }

  asPool(): Pool {
    return {
      getConnection: async () => {
        if (this.acquireError) throw this.acquireError;
        return this.connection();
      },
      close: async () => undefined,
      connectionsOpen: 1,
      connectionsInUse: 0,
    };
  }

  private connection(): Connection {
    const connection = Object.assign(
      { module: '', action: '', clientId: '', callTimeout: 0 },
      {
        execute: async (sql: string, binds: Record<string, unknown>, options?: unknown) => {
          const { module, action, clientId, callTimeout } = connection;
          this.executed.push({ sql, binds, options, tags: { module, action, clientId, callTimeout } });
          const next = this.script.shift();
          if (!next) throw new Error('FakeOraclePool: no answer scripted');
          if ('error' in next) throw next.error;
          return next as never;
        },
        ping: async () => {
          this.pings++;
        },
        close: async (options?: { drop?: boolean }) => {
          this.closed.push(options);
        },
      },
    );
    return connection as Connection;
  }
}

/** The procedure's OUT binds under the adapter's bind names. */
export function outBinds(codigo: string | null, reserved: string | null, token: string | null, message: string | null) {
  return { outBinds: { b_codigo_p: codigo, b_ie_reservado_p: reserved, b_token_reserva_p: token, b_mensagem_p: message } };
}
