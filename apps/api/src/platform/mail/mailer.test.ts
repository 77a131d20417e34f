import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { startSmtp, type TestSmtp } from '../../test/smtp.js';
import { PeopleTime } from '../peopleTime.js';
import type { AuditedMail } from './mailer.js';
import { MailSealer } from './sealed.js';
import { recoveryCodeMail } from './templates.js';
import { createTransport, deliveryFailure } from './transport.js';

const ctx = {
  companyName: 'ООО «Ромашка»',
  publicUrl: 'https://learn.example.com',
  people: new PeopleTime('Europe/Moscow'),
};
const audited = (to: string, code: string): AuditedMail => ({
  ...recoveryCodeMail(ctx, to, code),
  audit: { kind: 'password_recovery', user_id: null, course_id: null },
});

describe('mail transports', () => {
  it('without SMTP writes each message as an .eml file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lms-mail-'));
    try {
      await createTransport(loadConfig({ DATA_DIR: dir })).deliver(audited('anna@example.com', '482913'));
      const files = readdirSync(join(dir, 'mail'));
      expect(files).toHaveLength(1);
      const eml = readFileSync(join(dir, 'mail', files[0] ?? ''), 'utf8');
      expect(eml).toContain('To: anna@example.com');
      expect(eml).toContain('text/plain');
      expect(eml).toContain('text/html');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('through a real SMTP server', () => {
    let smtp: TestSmtp;
    beforeEach(async () => {
      smtp = await startSmtp();
    });
    afterEach(async () => {
      await smtp.close();
    });
    const transport = () =>
      createTransport(
        loadConfig({ MAIL_HOST: '127.0.0.1', MAIL_PORT: String(smtp.port), MAIL_FROM: 'LMS <lms@example.com>' }),
      );
    const failureOf = async (to: string) => {
      const error = await transport()
        .deliver(audited(to, '1'))
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeDefined();
      return deliveryFailure(error);
    };

    it('sends through SMTP when configured', async () => {
      await transport().deliver(audited('ivan@example.com', '123456'));
      expect(smtp.accepted).toHaveLength(1);
      expect(smtp.accepted[0]?.to).toEqual(['ivan@example.com']);
      expect(smtp.accepted[0]?.raw).toContain('123456');
    });

    it('reads why a try failed: a refusal for good, a temporary one, a server away', async () => {
      smtp.refuse = (address) => (address.startsWith('gone') ? 550 : address.startsWith('busy') ? 451 : undefined);
      const gone = await failureOf('gone@example.com');
      expect(gone.permanent).toBe(true);
      expect(gone.reason).toMatch(/^Почтовый сервер отказался принять письмо: 550/);
      const busy = await failureOf('busy@example.com');
      expect(busy).toEqual({
        permanent: false,
        reason: expect.stringMatching(/^Почтовый сервер временно не принял письмо: 451/),
      });
      smtp.stop();
      expect(await failureOf('ivan@example.com')).toEqual({ permanent: false, reason: 'Почтовый сервер недоступен' });
    });
  });

  it('reads a refused login and an unknown error as worth retrying', () => {
    expect(deliveryFailure(Object.assign(new Error('Invalid login'), { code: 'EAUTH', responseCode: 535 }))).toEqual({
      permanent: false,
      reason: 'Почтовый сервер не принял имя пользователя или пароль (MAIL_USER, MAIL_PASSWORD)',
    });
    expect(deliveryFailure(Object.assign(new Error('slow'), { code: 'ETIMEDOUT' })).reason).toBe(
      'Почтовый сервер не ответил вовремя',
    );
    const odd = deliveryFailure(new Error('x'.repeat(1000)));
    expect([odd.permanent, odd.reason.length <= 300, odd.reason.startsWith('Не удалось отправить письмо: x')]).toEqual([
      false,
      true,
      true,
    ]);
  });
});

describe('sealed mail content', () => {
  it('opens with the same secret only, and never holds the text in the clear', () => {
    const sealer = new MailSealer('secret-one-0123456789-0123456789');
    const body = { html: '<p>Пароль: Zx8-пароль</p>'.repeat(50), text: 'Пароль: Zx8-пароль' };
    const sealed = sealer.seal(body);
    expect(sealed).not.toContain('Zx8');
    expect(Buffer.from(sealed.slice(3), 'base64').toString('latin1')).not.toContain('Zx8');
    expect(sealer.open(sealed)).toEqual(body);
    expect(sealer.seal(body)).not.toBe(sealed);
    expect(() => new MailSealer('secret-two-0123456789-0123456789').open(sealed)).toThrow();
    const tampered = `${sealed.slice(0, -4)}AAA=`;
    expect(() => sealer.open(tampered)).toThrow();
  });
});
