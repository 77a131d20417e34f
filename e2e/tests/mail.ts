import { SMTPServer } from 'smtp-server';

/** One message received by the test SMTP server. */
export interface ReceivedMail {
  to: string[];
  raw: string;
  /** The decoded text/plain part (or the whole decoded body for a single-part message). */
  text: string;
}

function decodeQuotedPrintable(body: string): Buffer {
  const joined = body.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i] ?? '', 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

function splitHead(part: string): { headers: string; body: string } {
  const at = part.search(/\r?\n\r?\n/);
  if (at < 0) return { headers: part, body: '' };
  const sep = part.slice(at).match(/^\r?\n\r?\n/)?.[0] ?? '\n\n';
  return { headers: part.slice(0, at), body: part.slice(at + sep.length) };
}

function header(headers: string, name: string): string {
  const unfolded = headers.replace(/\r?\n[ \t]+/g, ' ');
  const match = unfolded.match(new RegExp(`^${name}:\\s*(.*)$`, 'im'));
  return match?.[1]?.trim() ?? '';
}

function decodeBody(headers: string, body: string): string {
  const encoding = header(headers, 'Content-Transfer-Encoding').toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body).toString('utf8');
  return body;
}

/** The text/plain part of a raw MIME message, decoded (base64 / quoted-printable). */
export function plainText(raw: string): string {
  const { headers, body } = splitHead(raw);
  const type = header(headers, 'Content-Type');
  const boundary = type.match(/boundary="?([^";]+)"?/i)?.[1];
  if (!boundary) return decodeBody(headers, body);
  const parts = body.split(`--${boundary}`).slice(1);
  for (const part of parts) {
    if (part.startsWith('--')) break;
    const inner = splitHead(part.replace(/^\r?\n/, ''));
    const innerType = header(inner.headers, 'Content-Type');
    if (/^multipart\//i.test(innerType)) {
      const nested = plainText(part.replace(/^\r?\n/, ''));
      if (nested) return nested;
    } else if (/^text\/plain/i.test(innerType)) {
      return decodeBody(inner.headers, inner.body);
    }
  }
  return '';
}

/**
 * A local SMTP server that keeps the messages in memory. It accepts everything unless `refuse` gives
 * a reply code for a recipient (550: refused for good); `stop()` takes it away and `start()` brings it
 * back on the same port.
 */
export interface TestSmtp {
  port: number;
  mails: ReceivedMail[];
  refuse: (address: string) => number | undefined;
  stop: () => Promise<void>;
  start: () => Promise<void>;
  close: () => Promise<void>;
}

export async function startSmtp(): Promise<TestSmtp> {
  let server: SMTPServer | undefined;
  const smtp: TestSmtp = {
    port: 0,
    mails: [],
    refuse: () => undefined,
    stop: async () => {
      const s = server;
      server = undefined;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    start: async () => {
      const s = create();
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(smtp.port, '127.0.0.1', () => resolve());
      });
      server = s;
      const address = s.server.address();
      smtp.port = typeof address === 'object' && address ? address.port : 0;
    },
    close: () => smtp.stop(),
  };
  const create = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      closeTimeout: 1,
      onRcptTo(address, _session, callback) {
        const code = smtp.refuse(address.address);
        if (code === undefined) return callback();
        const error = new Error('Mailbox unavailable') as Error & { responseCode: number };
        error.responseCode = code;
        return callback(error);
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          smtp.mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, text: plainText(raw) });
          callback();
        });
      },
    });
  await smtp.start();
  return smtp;
}
