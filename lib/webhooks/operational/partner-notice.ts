import 'server-only';
import type { Knex } from 'knex';
import { env } from '@/lib/config/env';
import { mailConfigured, sendMail } from '@/lib/mail/send-mail';
import { findWebhook } from '@/lib/webhooks/configurations/store/configs';
import { type StoredWebhook } from '@/lib/webhooks/configurations/store/rows';
import { skippedDeliveries } from '../delivery/store';
import { partnerMail, type PartnerNotice } from '../configurations/partner-mail';
import { partnerPortalLink } from './portal-link';

/**
 * Tells a configuration's technical contact (`emailContato`) that the worker switched its
 * deliveries off, or that they are back on (the receiver not yet confirmed, and what was skipped
 * meanwhile, for a recovery): called by the one instance that raised or closed the
 * incident (lib/webhooks/alerts/service.ts), so the contact gets one message each. Nothing without
 * SMTP_URL or a confirmed contact, or when the configuration is no longer in that state. True when the mail
 * server took the message.
 */
export async function tellPartner(db: Knex, configId: string, change: PartnerNotice['kind'], now: number): Promise<boolean> {
  if (!mailConfigured()) return false;
  const stored = await findWebhook(db, configId);
  // Only an address its owner confirmed (contact-confirmation.ts): never one a tenant merely typed.
  if (!stored?.contactEmail || !stored.contactConfirmed) return false;
  const notice =
    change === 'desativada'
      ? switchedOff(stored)
      : stored.state.enabled
        ? { kind: change, at: now, skipped: await skippedDeliveries(db, configId) }
        : undefined;
  if (!notice) return false;
  const link = partnerPortalLink(configId, env().NEXTAUTH_URL);
  return sendMail(partnerMail(stored.contactEmail, notice, stored.config, link), `webhook.partner.${change}`);
}

function switchedOff({ state }: StoredWebhook): PartnerNotice | undefined {
  const { enabled, disabledReason: reason, disabledAt } = state;
  if (enabled || disabledAt === null || (reason !== 'receptor-410' && reason !== 'falhas-consecutivas')) return undefined;
  return { kind: 'desativada', since: disabledAt, reason };
}
