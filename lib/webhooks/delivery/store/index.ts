/**
 * The delivery store: webhook events, deliveries and attempts in the app database (SQLite,
 * PostgreSQL or Oracle alike), one module per job. Every state change is its own committed write:
 * the claim before an attempt, the outcome after it, so a process killed mid-attempt loses nothing;
 * its lease runs out and another claim sends it again, with the same webhook-id. These modules are
 * the only ones that query the delivery tables (lib/data/table-ownership.test.ts).
 */
export * from './claims';
export * from './controls';
export * from './delivery-log';
export * from './due';
export * from './operational';
export * from './outcomes';
export * from './queue';
export * from './receivers';
export * from './quota-windows';
export * from './retention';
export * from './rollups';
export * from './rows';
export * from './statistics';
export * from './triage';
