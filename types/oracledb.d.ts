/**
 * node-oracledb ships no TypeScript types; this declares the part the app uses
 * (lib/scheduling/oracle and knex's oracledb client).
 */
declare module 'oracledb' {
  export type BindDefinition = { dir?: number; type?: unknown; maxSize?: number; val?: unknown };

  export interface Connection {
    module: string;
    action: string;
    clientId: string;
    callTimeout: number;
    execute<T = unknown>(
      sql: string,
      binds: Record<string, unknown>, // BindDefinition or a plain value
      options?: { autoCommit?: boolean; outFormat?: number },
    ): Promise<{ outBinds?: T; rows?: unknown[] }>;
    ping(): Promise<void>;
    close(options?: { drop?: boolean }): Promise<void>;
  }

  export interface Pool {
    getConnection(): Promise<Connection>;
    close(drainTime?: number): Promise<void>;
    readonly connectionsOpen: number;
    readonly connectionsInUse: number;
  }

  export type PoolAttributes = Record<string, unknown>;

  export const BIND_IN: number;
  export const BIND_OUT: number;
  export const STRING: unknown;
  export const NUMBER: unknown;
  export const OUT_FORMAT_OBJECT: number;
  export const thin: boolean;
  export function createPool(attributes: PoolAttributes): Promise<Pool>;
  export function initOracleClient(options?: { libDir?: string; configDir?: string }): void;

  const oracledb: {
    BIND_IN: number;
    BIND_OUT: number;
    STRING: unknown;
    NUMBER: unknown;
    OUT_FORMAT_OBJECT: number;
    thin: boolean;
    createPool: typeof createPool;
    initOracleClient: typeof initOracleClient;
  };
  export default oracledb;
}
