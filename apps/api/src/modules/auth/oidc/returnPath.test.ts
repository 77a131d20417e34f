import { oidcStartHref, sameSitePath } from '@lms/contract';
import { describe, expect, it } from 'vitest';

describe('where the corporate sign-in goes back to (contract sameSitePath)', () => {
  it('takes paths of this site, percent-encoded as a Location header needs them', () => {
    expect(sameSitePath('/')).toBe('/');
    expect(sameSitePath('/catalogue/5?tab=Модули#top')).toBe(
      '/catalogue/5?tab=%D0%9C%D0%BE%D0%B4%D1%83%D0%BB%D0%B8#top',
    );
    expect(sameSitePath('/settings?search=Иван Петров')).toBe(
      '/settings?search=%D0%98%D0%B2%D0%B0%D0%BD%20%D0%9F%D0%B5%D1%82%D1%80%D0%BE%D0%B2',
    );
    expect(sameSitePath('/a/../profile')).toBe('/profile');
  });

  it.each([
    ['another host', '//evil.example/login'],
    ['another host, with a backslash', '/\\evil.example'],
    ['a scheme', 'https://evil.example/'],
    ['a script', 'javascript:alert(1)'],
    ['a data address', 'data:text/html,<script>alert(1)</script>'],
    ['a relative path', 'profile'],
    ['an empty value', ''],
    ['a tab that parsers drop', '/\t/evil.example'],
    ['a line feed', '/\n/evil.example'],
    ['something too long', `/${'a'.repeat(2001)}`],
  ])('refuses %s', (_case, value) => {
    expect(sameSitePath(value)).toBeUndefined();
  });

  it('the start address carries the return path (none for the home page) and remember-me', () => {
    expect(oidcStartHref(undefined, false)).toBe('/api/auth/oidc/start');
    expect(oidcStartHref('/', true)).toBe('/api/auth/oidc/start?remember=1');
    expect(oidcStartHref('/profile?x=1', false)).toBe('/api/auth/oidc/start?return=%2Fprofile%3Fx%3D1');
    expect(oidcStartHref('//evil.example', true)).toBe('/api/auth/oidc/start?remember=1');
  });
});
