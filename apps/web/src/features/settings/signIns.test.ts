import { describe, expect, it } from 'vitest';
import { browserSummary, cleanSearch, signInFiltersOf, signInParams } from './signIns';

describe('browserSummary', () => {
  it.each([
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Chrome 131 · Windows',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
      'Edge 131 · Windows',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/128.0.0.0 YaBrowser/24.10.0.0 Safari/537.36',
      'Яндекс Браузер 24 · Windows',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
      'Safari 18 · macOS',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      'Safari 18 · iOS',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      'Chrome 131 · Android',
    ],
    ['Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox 133 · Linux'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0',
      'Opera 115 · Windows',
    ],
    ['curl/8.5.0', 'curl/8.5.0'],
    [
      'Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17928; Pro)',
      'Microsoft Office/16.0 (Windows NT 10.0;…',
    ],
  ])('%s → %s', (agent, summary) => {
    expect(browserSummary(agent)).toBe(summary);
  });
});

describe('the filters of the address', () => {
  const of = (query: string) => signInFiltersOf(new URLSearchParams(query));

  it('reads what the contract takes and drops the rest', () => {
    expect(of('')).toEqual({ filters: {}, page: 1 });
    expect(of('method=ldap&result=failure&search=%20ivanov%20&page=3')).toEqual({
      filters: { method: 'ldap', result: 'failure', search: 'ivanov' },
      page: 3,
    });
    expect(of('method=sms&result=maybe&search=%20%20&page=-2')).toEqual({ filters: {}, page: 1 });
    expect(of('page=2.5').page).toBe(1);
    expect(of('page=9999999').page).toBe(1);
  });

  it('cuts a search to the 100 characters the server takes, without control characters', () => {
    expect(cleanSearch(`a\u0000b\tc ${'я'.repeat(200)}`)).toBe(`abc ${'я'.repeat(96)}`);
    expect(cleanSearch('   ')).toBe('');
  });

  it('writes only the filters that are set', () => {
    expect(signInParams({})).toEqual({});
    expect(signInParams({ method: 'oidc', search: 'петров' })).toEqual({ method: 'oidc', search: 'петров' });
  });
});
