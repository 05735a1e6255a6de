/**
 * PORTAL HOOK (issue 31 §3): the partner portal's page of a configuration, for the e-mails to its
 * technical contact (partner-mail.ts). The partner portal (/portal) is not in this build yet, so
 * there is no link and the e-mails go without one. Once it is, answer its page here, e.g.
 * `new URL(`/portal/webhooks/${configId}`, origin).toString()` with `origin` the console's public
 * address (NEXTAUTH_URL, which SMTP_URL already requires).
 */
export function partnerPortalLink(_configId: string, _origin: string | undefined): string | undefined {
  return undefined;
}
