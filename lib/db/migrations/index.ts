import type { Knex } from 'knex';
import { initial } from './001_initial';
import { oneActiveBooking } from './002_one_active_booking';
import { reservationOwnership } from './003_reservation_ownership';
import { webhookDeliveries } from './004_webhook_deliveries';
import { apiClientLifecycle } from './005_api_client_lifecycle';
import { staffLifecycle } from './006_staff_lifecycle';
import { staffSso } from './007_staff_sso';
import { deliveryIsolation } from './008_delivery_isolation';
import { attemptHealth } from './009_attempt_health';
import { webhookAlerts } from './010_webhook_alerts';
import { deliveryTenants } from './011_delivery_tenants';
import { auditTokenMasks } from './012_audit_token_masks';
import { staffSessionVersion } from './013_staff_session_version';
import { tenantQuotas } from './014_tenant_quotas';
import { webhookSubscriptions } from './015_webhook_subscriptions';
import { deliveryControls } from './016_delivery_controls';
import { operationalNotifications } from './017_operational_notifications';
import { brokerCredentials } from './018_broker_credentials';
import { partnerPortal } from './019_partner_portal';
import { boundCiphertexts } from './020_bound_ciphertexts';
import { contactConfirmation } from './021_contact_confirmation';
import { deliveryUnderLoad } from './022_delivery_under_load';
import { payloadControl } from './023_payload_control';
import { waitlist } from './024_waitlist';
import { releaseIdentifiers } from './025_release_identifiers';
import { eventTypes } from './026_event_types';
import { attemptRollups } from './027_attempt_rollups';
import type { Migration } from './migration';

/**
 * Schema migrations as code (not files on disk), so they travel inside the Next build. Names sort
 * in order; never edit one that has shipped, add the next one instead. Column types stay within
 * what SQLite, PostgreSQL and Oracle all store the same way: identifiers are short, JSON is text,
 * instants are epoch milliseconds in bigints.
 *
 * One file per migration, named as its key (NNN_what.ts), exporting its Migration; to add one, write
 * the next number's file and register it in the map below. A helper that only a shipped migration
 * uses lives beside it (reseal.ts for 020) and is as frozen as the migration.
 */
const migrations: Record<string, Migration> = {
  '001_initial': initial,
  '002_one_active_booking': oneActiveBooking,
  '003_reservation_ownership': reservationOwnership,
  '004_webhook_deliveries': webhookDeliveries,
  '005_api_client_lifecycle': apiClientLifecycle,
  '006_staff_lifecycle': staffLifecycle,
  '007_staff_sso': staffSso,
  '008_delivery_isolation': deliveryIsolation,
  '009_attempt_health': attemptHealth,
  '010_webhook_alerts': webhookAlerts,
  '011_delivery_tenants': deliveryTenants,
  '012_audit_token_masks': auditTokenMasks,
  '013_staff_session_version': staffSessionVersion,
  '014_tenant_quotas': tenantQuotas,
  '015_webhook_subscriptions': webhookSubscriptions,
  '016_delivery_controls': deliveryControls,
  '017_operational_notifications': operationalNotifications,
  '018_broker_credentials': brokerCredentials,
  '019_partner_portal': partnerPortal,
  '020_bound_ciphertexts': boundCiphertexts,
  '021_contact_confirmation': contactConfirmation,
  '022_delivery_under_load': deliveryUnderLoad,
  '023_payload_control': payloadControl,
  '024_waitlist': waitlist,
  '025_release_identifiers': releaseIdentifiers,
  '026_event_types': eventTypes,
  '027_attempt_rollups': attemptRollups,
};

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: () => Promise.resolve(Object.keys(migrations).sort()),
  getMigrationName: (name) => name,
  getMigration: (name) => {
    const migration = migrations[name];
    return migration ? Promise.resolve(migration) : Promise.reject(new Error(`Unknown migration ${name}`));
  },
};
