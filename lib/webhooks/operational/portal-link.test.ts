import { describe, expect, it } from 'vitest';
import { partnerPortalLink } from './portal-link';

/** The e-mails link the portal's page of the configuration, never a credential (issue 30 §6). */
describe('the portal entry in a technical contact’s e-mail', () => {
  it('is the configuration’s page in the portal at the public address', () => {
    expect(partnerPortalLink('3f2a9c1e-5b7d-4e8f-a1b2-c3d4e5f6a7b8', 'https://console.exemplo')).toBe(
      'https://console.exemplo/portal/webhooks/3f2a9c1e-5b7d-4e8f-a1b2-c3d4e5f6a7b8',
    );
  });

  it('carries no token, and is absent without a public address', () => {
    expect(partnerPortalLink('3f2a9c1e-5b7d-4e8f-a1b2-c3d4e5f6a7b8', 'https://console.exemplo')).not.toContain('#');
    expect(partnerPortalLink('3f2a9c1e-5b7d-4e8f-a1b2-c3d4e5f6a7b8', undefined)).toBeUndefined();
  });
});
