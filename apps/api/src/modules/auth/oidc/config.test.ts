import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config.js';

describe('OpenID Connect configuration (OIDC_*)', () => {
  it('is off unless the issuer and the client id are set; has its defaults', () => {
    expect(loadConfig({}).oidc).toBeNull();
    expect(loadConfig({ OIDC_ISSUER: '', OIDC_CLIENT_ID: '' }).oidc).toBeNull();
    expect(loadConfig({ OIDC_ISSUER: 'https://sso.company.ru/realms/staff', OIDC_CLIENT_ID: 'lms' }).oidc).toEqual({
      issuer: 'https://sso.company.ru/realms/staff',
      clientId: 'lms',
      clientSecret: undefined,
      buttonLabel: 'Войти через корпоративный аккаунт',
      scopes: 'openid email profile',
      claims: {
        email: 'email',
        firstName: 'given_name',
        lastName: 'family_name',
        department: 'department',
        position: 'position',
      },
      createUsers: false,
    });
  });

  it('reads every setting', () => {
    const oidc = loadConfig({
      OIDC_ISSUER: 'https://adfs.company.ru/adfs',
      OIDC_CLIENT_ID: 'lms',
      OIDC_CLIENT_SECRET: 's3cret',
      OIDC_BUTTON_LABEL: ' Войти через ADFS ',
      OIDC_SCOPES: ' openid  email profile allatclaims ',
      OIDC_CLAIM_EMAIL: 'upn',
      OIDC_CLAIM_FIRST_NAME: 'given_name',
      OIDC_CLAIM_LAST_NAME: 'family_name',
      OIDC_CLAIM_DEPARTMENT: 'dept',
      OIDC_CLAIM_POSITION: 'job_title',
      OIDC_CREATE_USERS: 'true',
    }).oidc;
    expect(oidc).toMatchObject({
      clientSecret: 's3cret',
      buttonLabel: 'Войти через ADFS',
      scopes: 'openid email profile allatclaims',
      claims: { email: 'upn', department: 'dept', position: 'job_title' },
      createUsers: true,
    });
  });

  it('refuses to start on half a setting, plain http off this machine, or scopes without openid', () => {
    expect(() => loadConfig({ OIDC_ISSUER: 'https://sso.company.ru' })).toThrow(/OIDC_ISSUER and OIDC_CLIENT_ID/);
    expect(() => loadConfig({ OIDC_CLIENT_ID: 'lms' })).toThrow(/OIDC_ISSUER and OIDC_CLIENT_ID/);
    expect(() => loadConfig({ OIDC_ISSUER: 'sso.company.ru', OIDC_CLIENT_ID: 'lms' })).toThrow(/OIDC_ISSUER/);
    expect(() => loadConfig({ OIDC_ISSUER: 'http://sso.company.ru', OIDC_CLIENT_ID: 'lms' })).toThrow(/https/);
    expect(loadConfig({ OIDC_ISSUER: 'http://127.0.0.1:8080', OIDC_CLIENT_ID: 'lms' }).oidc?.issuer).toBe(
      'http://127.0.0.1:8080',
    );
    expect(() =>
      loadConfig({ OIDC_ISSUER: 'https://sso.company.ru', OIDC_CLIENT_ID: 'lms', OIDC_SCOPES: 'email profile' }),
    ).toThrow(/openid/);
    expect(() =>
      loadConfig({ OIDC_ISSUER: 'https://sso.company.ru', OIDC_CLIENT_ID: 'lms', OIDC_CREATE_USERS: 'maybe' }),
    ).toThrow(/OIDC_CREATE_USERS/);
  });
});
