import { createHmac, createSecretKey } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { verifyHs256, type Hs256Expectations } from './hs256';

// Each case is verified by verifyHs256 and by jose's jwtVerify with the options access-tokens.ts
// used to give it: both must reach the verdict the case expects.
const secret = 'segredo-de-teste-com-48-caracteres-0123456789ab';
const key = createSecretKey(Buffer.from(secret, 'utf8'));
const otherKey = createSecretKey(Buffer.from(`${secret}-outro`, 'utf8'));
const NOW = 1_900_000_000; // seconds
const expected: Hs256Expectations = {
  key,
  typ: 'at+jwt',
  issuer: 'integration-console',
  audience: 'integration-api',
  requiredClaims: ['exp', 'iat', 'sub'],
  maxTokenAge: 930,
  clockToleranceSeconds: 30,
};
const claims = { sub: 'cliente', iss: expected.issuer, aud: expected.audience, iat: NOW - 10, exp: NOW + 890, usuarioId: 'u-1' };

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
/** A compact JWS signed by hand, so headers and claims jose's SignJWT would refuse to write can be tested. */
function handMade(header: unknown, payload: unknown, signingKey = key): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${createHmac('sha256', signingKey).update(input).digest('base64url')}`;
}
const signed = (payload: Record<string, unknown>, header: Record<string, unknown> = {}) =>
  handMade({ alg: 'HS256', typ: 'at+jwt', ...header }, payload);

async function joseAccepts(token: string): Promise<boolean> {
  try {
    await jwtVerify(token, key, {
      algorithms: ['HS256'],
      typ: expected.typ,
      issuer: expected.issuer,
      audience: expected.audience,
      requiredClaims: [...expected.requiredClaims],
      maxTokenAge: expected.maxTokenAge,
      clockTolerance: expected.clockToleranceSeconds,
      currentDate: new Date(NOW * 1000),
    });
    return true;
  } catch {
    return false;
  }
}

const valid = signed(claims);
const [validHeader, validPayload, validSignature] = valid.split('.') as [string, string, string];

const cases: [string, string | (() => Promise<string>), boolean][] = [
  ['a token as the product signs it', () => new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' }).sign(key), true],
  ['typ in its media-type form', signed(claims, { typ: 'application/AT+JWT' }), true],
  ['an audience list holding ours', signed({ ...claims, aud: ['outra', expected.audience] }), true],
  ['expired within the clock tolerance', signed({ ...claims, exp: NOW - 29 }), true],
  ['issued up to the tolerance in the future', signed({ ...claims, iat: NOW + 30 }), true],
  ['signed with another key', handMade({ alg: 'HS256', typ: 'at+jwt' }, claims, otherKey), false],
  ['a payload changed after signing', `${validHeader}.${b64({ ...claims, sub: 'admin' })}.${validSignature}`, false],
  ['a signature cut short', `${validHeader}.${validPayload}.${validSignature.slice(0, -2)}`, false],
  ['no signature', `${validHeader}.${validPayload}.`, false],
  ['alg none', `${b64({ alg: 'none', typ: 'at+jwt' })}.${validPayload}.`, false],
  ['alg HS512', handMade({ alg: 'HS512', typ: 'at+jwt' }, claims), false],
  ['no typ', handMade({ alg: 'HS256' }, claims), false],
  ['typ JWT', signed(claims, { typ: 'JWT' }), false],
  ['a crit extension', signed(claims, { crit: ['exp'] }), false],
  ['expired beyond the tolerance', signed({ ...claims, exp: NOW - 30 }), false],
  ['issued too long ago', signed({ ...claims, iat: NOW - 961, exp: NOW + 100 }), false],
  ['issued beyond the tolerance in the future', signed({ ...claims, iat: NOW + 31 }), false],
  ['not valid yet (nbf)', signed({ ...claims, nbf: NOW + 31 }), false],
  ['another issuer', signed({ ...claims, iss: 'outro' }), false],
  ['another audience', signed({ ...claims, aud: 'outra' }), false],
  ['an audience list without ours', signed({ ...claims, aud: ['outra'] }), false],
  ['no exp', signed({ ...claims, exp: undefined }), false],
  ['no iat', signed({ ...claims, iat: undefined }), false],
  ['no sub', signed({ ...claims, sub: undefined }), false],
  ['exp as text', signed({ ...claims, exp: String(NOW + 100) }), false],
  ['exp null', signed({ ...claims, exp: null }), false],
  ['a payload that is a list', handMade({ alg: 'HS256', typ: 'at+jwt' }, [claims]), false],
  ['a payload that is not JSON', handMade({ alg: 'HS256', typ: 'at+jwt' }, '{"sub":'), false],
  ['a header that is not JSON', `${b64('{alg')}.${validPayload}.${validSignature}`, false],
  ['four segments', `${valid}.${validSignature}`, false],
  ['two segments', `${validHeader}.${validPayload}`, false],
  ['a signature with characters outside base64url', `${validHeader}.${validPayload}.${validSignature.slice(0, -1)}+`, false],
  ['empty', '', false],
];

describe('verifyHs256', () => {
  it.each(cases)('%s', async (_name, make, accepted) => {
    const token = typeof make === 'string' ? make : await make();
    expect(await joseAccepts(token)).toBe(accepted);
    expect(verifyHs256(token, expected, NOW * 1000) !== undefined).toBe(accepted);
  });

  it('answers the claims of a valid token', () => {
    expect(verifyHs256(valid, expected, NOW * 1000)).toEqual(claims);
  });
});
