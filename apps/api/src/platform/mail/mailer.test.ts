import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../config.js';
import { BackgroundMailer, createTransportDeliver, type MailMessage } from './mailer.js';
import { recoveryCodeMail } from './templates.js';

const quietLog = () => {
  const lines: { obj: object; msg: string }[] = [];
  return {
    lines,
    info: (obj: object, msg: string) => lines.push({ obj, msg }),
    error: (obj: object, msg: string) => lines.push({ obj, msg }),
  };
};
const ctx = { companyName: 'ООО «Ромашка»', publicUrl: 'https://learn.example.com' };

describe('mail', () => {
  it('without SMTP writes each message as an .eml file and logs recipient and subject only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lms-mail-'));
    try {
      const log = quietLog();
      const mailer = new BackgroundMailer(createTransportDeliver(loadConfig({ DATA_DIR: dir })), log);
      mailer.send(recoveryCodeMail(ctx, 'anna@example.com', '482913'));
      await mailer.idle();
      const files = readdirSync(join(dir, 'mail'));
      expect(files).toHaveLength(1);
      const eml = readFileSync(join(dir, 'mail', files[0] ?? ''), 'utf8');
      expect(eml).toContain('To: anna@example.com');
      expect(eml).toContain('text/plain');
      expect(eml).toContain('text/html');
      expect(JSON.stringify(log.lines)).not.toContain('482913');
      expect(log.lines).toEqual([
        { obj: { to: 'anna@example.com', subject: 'ООО «Ромашка»: код для восстановления пароля' }, msg: 'mail sent' },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sends through SMTP when configured', async () => {
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let data = '';
        stream.on('data', (c: Buffer) => (data += c.toString()));
        stream.on('end', () => {
          received.push(data);
          callback();
        });
      },
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const address = server.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const config = loadConfig({
        MAIL_HOST: '127.0.0.1',
        MAIL_PORT: String(port),
        MAIL_FROM: 'LMS <lms@example.com>',
      });
      const mailer = new BackgroundMailer(createTransportDeliver(config), quietLog());
      mailer.send(recoveryCodeMail(ctx, 'ivan@example.com', '123456'));
      await mailer.idle();
      expect(received).toHaveLength(1);
      expect(received[0]).toContain('ivan@example.com');
      expect(received[0]).toContain('123456');
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('retries a failed delivery and gives up with a log line, never throwing to the caller', async () => {
    let calls = 0;
    const log = quietLog();
    const flaky = new BackgroundMailer(
      async (_m: MailMessage) => {
        calls++;
        if (calls < 3) throw new Error('smtp down');
      },
      log,
      [1, 1, 1],
    );
    flaky.send(recoveryCodeMail(ctx, 'a@example.com', '111111'));
    await flaky.idle();
    expect(calls).toBe(3);
    expect(log.lines.at(-1)?.msg).toBe('mail sent');

    const dead = new BackgroundMailer(async () => Promise.reject(new Error('down')), log, [1, 1]);
    dead.send(recoveryCodeMail(ctx, 'b@example.com', '222222'));
    await dead.idle();
    expect(log.lines.at(-1)?.msg).toBe('mail failed, giving up');
  });

  it('delivers a few at a time, whatever was queued, and lets producers wait for room', async () => {
    const gates: (() => void)[] = [];
    let running = 0;
    let most = 0;
    const mailer = new BackgroundMailer(
      async () => {
        running++;
        most = Math.max(most, running);
        await new Promise<void>((r) => gates.push(r));
        running--;
      },
      quietLog(),
      [1],
      3,
    );
    for (let i = 0; i < 10; i++) mailer.send(recoveryCodeMail(ctx, `u${i}@example.com`, '000000'));
    expect(gates).toHaveLength(3);
    expect(mailer.backlog()).toBe(10);
    let roomy = false;
    const room = mailer.whenBelow(8).then(() => (roomy = true));
    const flush = async () => {
      for (let i = 0; i < 5; i++) await Promise.resolve();
    };
    gates.shift()?.();
    gates.shift()?.();
    await flush();
    expect(roomy).toBe(false);
    gates.shift()?.();
    await room;
    expect(mailer.backlog()).toBe(7);
    while (mailer.backlog() > 0) {
      gates.shift()?.();
      await flush();
    }
    await mailer.idle();
    expect(most).toBe(3);
  });

  it('keeps no delivery slot while a failed message waits for its retry', async () => {
    const log = quietLog();
    const delivered: string[] = [];
    const mailer = new BackgroundMailer(
      async (m: MailMessage) => {
        if (m.to === 'bad@example.com' && !delivered.includes('retry')) {
          delivered.push('retry');
          throw new Error('mailbox busy');
        }
        delivered.push(m.to);
      },
      log,
      [60_000],
      1,
    );
    vi.useFakeTimers();
    try {
      mailer.send(recoveryCodeMail(ctx, 'bad@example.com', '1'));
      mailer.send(recoveryCodeMail(ctx, 'good@example.com', '2'));
      await vi.advanceTimersByTimeAsync(0);
      expect(delivered).toEqual(['retry', 'good@example.com']);
      expect(mailer.backlog()).toBe(1);
      await vi.advanceTimersByTimeAsync(60_000);
      await mailer.idle();
      expect(delivered).toEqual(['retry', 'good@example.com', 'bad@example.com']);
    } finally {
      vi.useRealTimers();
    }
  });
});
