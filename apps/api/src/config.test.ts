import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('configuration of time and mail (issue 30)', () => {
  it('has the company time zone, the digest moment and the retry window, with their defaults', () => {
    const config = loadConfig({});
    expect(config.timeZone).toBe('Europe/Moscow');
    expect(config.digest).toEqual({ weekday: 1, hour: 9 });
    expect(config.mail.retryMs).toBe(24 * 3_600_000);
    expect(config.reminders.intervalMs).toBe(60 * 60_000);
    const set = loadConfig({
      TIMEZONE: 'Asia/Novosibirsk',
      DIGEST_DAY: 'Friday',
      DIGEST_HOUR: '17',
      MAIL_RETRY_HOURS: '48',
    });
    expect([set.timeZone, set.digest, set.mail.retryMs]).toEqual([
      'Asia/Novosibirsk',
      { weekday: 5, hour: 17 },
      48 * 3_600_000,
    ]);
    expect(loadConfig({ DIGEST_DAY: 'sunday', DIGEST_HOUR: '0' }).digest).toEqual({ weekday: 7, hour: 0 });
  });

  it('refuses to start on a zone, day or hour that is not one', () => {
    expect(() => loadConfig({ TIMEZONE: 'Moscow' })).toThrow(/TIMEZONE must be an IANA time zone/);
    expect(() => loadConfig({ TIMEZONE: 'UTC+3' })).toThrow(/TIMEZONE/);
    expect(() => loadConfig({ DIGEST_DAY: 'понедельник' })).toThrow(/DIGEST_DAY must be a day of the week/);
    expect(() => loadConfig({ DIGEST_HOUR: '24' })).toThrow(/DIGEST_HOUR/);
    expect(() => loadConfig({ DIGEST_HOUR: '9.5' })).toThrow(/DIGEST_HOUR/);
    expect(() => loadConfig({ MAIL_RETRY_HOURS: '0' })).toThrow(/MAIL_RETRY_HOURS/);
  });

  it('takes CONTENT_URL as an origin of another host than the platform', () => {
    expect(loadConfig({}).contentUrl).toBeUndefined();
    expect(loadConfig({ CONTENT_URL: 'https://content.company.ru/ignored/path' }).contentUrl).toBe(
      'https://content.company.ru',
    );
    expect(() => loadConfig({ CONTENT_URL: 'ftp://content.company.ru' })).toThrow(/CONTENT_URL/);
    expect(() =>
      loadConfig({ CONTENT_URL: 'https://learn.company.ru/scorm', PUBLIC_URL: 'https://learn.company.ru' }),
    ).toThrow(/CONTENT_URL must name another host than PUBLIC_URL/);
  });
});
