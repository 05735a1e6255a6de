import 'server-only';
import type { Knex } from 'knex';

/** The configuration's technical contact (issue 43): its e-mail and the link that confirms it. */

/** A contact's confirmation link as stored: the SHA-256 of its token, and its end of life. */
export type ContactLink = { tokenHash: string; expires: number };

/**
 * The technical contact's e-mail (null: none), unconfirmed, with the link that confirms it; beyond
 * the contract, not part of the version.
 */
export async function saveContactEmail(trx: Knex.Transaction, id: string, email: string | null, link: ContactLink | null): Promise<void> {
  await trx('webhook_configs')
    .where({ id })
    .update({
      contact_email: email,
      contact_confirmed_at: null,
      contact_token_hash: link?.tokenHash ?? null,
      contact_token_expires: link?.expires ?? null,
    });
}

/** Confirms the contact whose live link has this token hash, once; false when none has. */
export async function confirmContactEmail(db: Knex, tokenHash: string, now: number): Promise<boolean> {
  const changed = await db('webhook_configs')
    .where({ contact_token_hash: tokenHash })
    .andWhere('contact_token_expires', '>', now)
    .update({ contact_confirmed_at: now, contact_token_hash: null, contact_token_expires: null });
  return changed > 0;
}
