/**
 * The partner portal's entry for the e-mails to a configuration's technical contact
 * (partner-mail.ts): the portal's page of that configuration, at the console's public address
 * (NEXTAUTH_URL, which SMTP_URL already requires).
 *
 * Not a portal link: a link is a credential that opens the tenant's portal for whoever clicks it
 * first, and an e-mail is read by mail scanners, forwarded and kept in mailboxes for years. The
 * page itself opens nothing: a partner without a live portal session is shown that its session has
 * ended and asks its integrator (whose API client issues links, POST …/portal/links) or staff for one.
 */
export function partnerPortalLink(configId: string, origin: string | undefined): string | undefined {
  if (!origin) return undefined;
  return new URL(`/portal/webhooks/${encodeURIComponent(configId)}`, origin).toString();
}
