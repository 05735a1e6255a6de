import { afterEach, describe, expect, it } from 'vitest';
import { env } from '@/lib/config/env';
import { mappedRoles } from '@/lib/auth/role-map';
import { parseRoleMap } from './sso';
import { resetEnv } from '@/lib/testing/hooks';

/** Single sign-on and mail settings through the app's one configuration entry point, env(). */
const saved = { ...process.env };

function configure(vars: Record<string, string>) {
  for (const key of Object.keys(process.env)) if (/^(OIDC_|SMTP_|PASSWORD_SIGN_IN|NEXTAUTH_URL)/.test(key)) delete process.env[key];
  Object.assign(process.env, vars);
  resetEnv();
}

afterEach(() => {
  process.env = { ...saved };
  resetEnv();
});

const consoleUrl = { NEXTAUTH_URL: 'https://console.hospital.example' };

const sso = {
  ...consoleUrl,
  OIDC_ISSUER: 'https://login.microsoftonline.com/tenant/v2.0/',
  OIDC_CLIENT_ID: 'console',
  OIDC_CLIENT_SECRET: 'segredo',
  OIDC_ROLE_MAP: 'Console.Admin=admin, Console.Agenda=scheduling,Console.Agenda=webhooks',
};

describe('single sign-on settings', () => {
  it('are off by default, with password sign-in on', () => {
    configure({});
    expect(env().sso).toBeUndefined();
    expect(env().PASSWORD_SIGN_IN).toBe(true);
  });

  it('parse a full setting: issuer without its trailing slash, a name opening several roles', () => {
    configure(sso);
    const config = env().sso!;
    expect(config.issuer).toBe('https://login.microsoftonline.com/tenant/v2.0');
    expect(config.rolesClaim).toBe('roles');
    expect(config.displayName).toBe('SSO');
    expect(config.roleMap.get('Console.Agenda')).toEqual(['scheduling', 'webhooks']);
  });

  it('name each missing or wrong variable', () => {
    configure({ OIDC_ISSUER: 'http://sso.hospital.example' });
    expect(() => env()).toThrow(
      /OIDC_ISSUER: must be https[\s\S]*NEXTAUTH_URL: is required with OIDC_ISSUER[\s\S]*OIDC_CLIENT_ID: is required[\s\S]*OIDC_CLIENT_SECRET[\s\S]*OIDC_ROLE_MAP: is required/,
    );
    configure({ ...sso, OIDC_ROLE_MAP: 'grupo=root' });
    expect(() => env()).toThrow(/OIDC_ROLE_MAP: "root" is not one of admin, webhooks, scheduling/);
    configure({ ...sso, OIDC_ROLE_MAP: 'sem-papel' });
    expect(() => env()).toThrow(/OIDC_ROLE_MAP: "sem-papel" is not name=role/);
    configure({ ...sso, OIDC_SCOPES: 'email profile' });
    expect(() => env()).toThrow(/OIDC_SCOPES: must include openid/);
  });

  it('refuse switching password sign-in off without single sign-on, which would leave no way in', () => {
    configure({ PASSWORD_SIGN_IN: 'false' });
    expect(() => env()).toThrow(/PASSWORD_SIGN_IN: false leaves no way to sign in/);
    configure({ ...sso, PASSWORD_SIGN_IN: 'false' });
    expect(env().PASSWORD_SIGN_IN).toBe(false);
  });

  it('map a claim holding an array or one name; unknown names and non-strings open nothing', () => {
    const map = parseRoleMap('agendamento=scheduling,ti=admin,ti=webhooks');
    if ('error' in map) throw new Error(map.error);
    expect(mappedRoles(['todos', 'agendamento'], map)).toEqual(['scheduling']);
    expect(mappedRoles('ti', map)).toEqual(['admin', 'webhooks']);
    expect(mappedRoles(['todos', 42, null], map)).toEqual([]);
    expect(mappedRoles(undefined, map)).toEqual([]);
    expect(mappedRoles({ agendamento: true }, map)).toEqual([]);
  });
});

describe('mail settings', () => {
  it('need a sender and the console URL with the server, and only smtp:// or smtps://', () => {
    configure({ ...consoleUrl, SMTP_URL: 'smtp://relay.hospital.example:587' });
    expect(() => env()).toThrow(/SMTP_FROM: is required with SMTP_URL/);
    configure({ SMTP_URL: 'smtp://relay.hospital.example:587', SMTP_FROM: 'a@b.c' });
    expect(() => env()).toThrow(/NEXTAUTH_URL: is required with SMTP_URL/);
    configure({ ...consoleUrl, SMTP_URL: 'http://relay.hospital.example', SMTP_FROM: 'a@b.c' });
    expect(() => env()).toThrow(/SMTP_URL: must be smtp:/);
    configure({ ...consoleUrl, SMTP_URL: 'smtps://u:p@relay.hospital.example:465', SMTP_FROM: 'Console <no-reply@hospital.example>' });
    expect(env().SMTP_TIMEOUT_MS).toBe(10_000);
  });
});
