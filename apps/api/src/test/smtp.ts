import { SMTPServer } from 'smtp-server';

/** One message a test SMTP server accepted. */
export interface AcceptedMail {
  to: string[];
  raw: string;
}

export interface TestSmtp {
  port: number;
  /** Every message accepted, across stops and restarts, in order. */
  accepted: AcceptedMail[];
  /** Refuses recipients for which this gives an SMTP reply code (e.g. 550, 451); accepts the rest. */
  refuse: (address: string) => number | undefined;
  /** Stops listening once `n` more messages were accepted (the connections in progress get 421). */
  stopAfter(n: number): void;
  /** Stops listening now: new connections are refused. */
  stop(): void;
  /** Listens again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real SMTP server (npm `smtp-server`) on 127.0.0.1: port 0 picks a free port, which it keeps across
 * stops and restarts, so that a test can take the mail server away and bring it back.
 */
export async function startSmtp(): Promise<TestSmtp> {
  let server: SMTPServer | undefined;
  let stopIn: number | undefined;
  const closing: Promise<void>[] = [];
  const smtp: TestSmtp = {
    port: 0,
    accepted: [],
    refuse: () => undefined,
    stopAfter(n) {
      stopIn = n;
    },
    stop() {
      const s = server;
      server = undefined;
      stopIn = undefined;
      // The listening socket closes at once; connections in progress are answered 421 and ended.
      if (s) closing.push(new Promise<void>((resolve) => s.close(() => resolve())));
    },
    async start() {
      server = create();
      const s = server;
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(smtp.port, '127.0.0.1', () => resolve());
      });
      const address = s.server.address();
      smtp.port = typeof address === 'object' && address ? address.port : 0;
    },
    async close() {
      smtp.stop();
      await Promise.all(closing);
    },
  };
  const create = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      // Connections still open when the server stops get 421 at once instead of 30 s later.
      closeTimeout: 1,
      onRcptTo(address, _session, callback) {
        const code = smtp.refuse(address.address);
        if (code === undefined) return callback();
        const error = new Error(code >= 500 ? 'Mailbox unavailable' : 'Try again later') as Error & {
          responseCode: number;
        };
        error.responseCode = code;
        return callback(error);
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          smtp.accepted.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
          if (stopIn !== undefined && --stopIn <= 0) smtp.stop();
        });
      },
    });
  await smtp.start();
  return smtp;
}
