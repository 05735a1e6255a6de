import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { portalEnvShape } from './portal';

/** PORTAL_FRAME_ANCESTORS: exact origins only, refused at start otherwise (issue 30 §3). */
describe('the portal’s framing origins', () => {
  const schema = z.object(portalEnvShape);
  const parse = (value: string | undefined) => schema.safeParse({ PORTAL_FRAME_ANCESTORS: value });

  it('are origins separated by spaces or commas, as URL.origin writes them', () => {
    expect(parse('https://plataforma.exemplo.com.br, http://localhost:3001  https://a.exemplo:8443/').data?.PORTAL_FRAME_ANCESTORS).toEqual(
      ['https://plataforma.exemplo.com.br', 'http://localhost:3001', 'https://a.exemplo:8443'],
    );
    expect(parse(undefined).data?.PORTAL_FRAME_ANCESTORS).toEqual([]);
  });

  it.each([
    '*',
    'https://*.exemplo.com.br',
    'https://exemplo.com.br/pagina',
    'plataforma.exemplo.com.br',
    "'self'",
    'ftp://exemplo',
    'https://u:p@exemplo',
  ])('refuse %s, which is not one origin', (value) => {
    expect(parse(value).success).toBe(false);
  });

  it('default to a 15-minute link and a 1-hour session', () => {
    expect(schema.parse({})).toMatchObject({ PORTAL_LINK_MINUTES: 15, PORTAL_SESSION_MINUTES: 60 });
  });
});
