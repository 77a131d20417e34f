import type { AddressInfo } from 'node:net';

/** How long in-flight requests may take to finish after SIGTERM before the process exits anyway. */
export const DEFAULT_DRAIN_MS = 10_000;

/** SHUTDOWN_TIMEOUT_MS: whole milliseconds; unset or empty means the default. */
export function parseDrainMs(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return DEFAULT_DRAIN_MS;
  if (!/^\d{1,9}$/.test(value.trim())) {
    throw new Error(`SHUTDOWN_TIMEOUT_MS must be a whole number of milliseconds, got "${value}"`);
  }
  return Number(value.trim());
}

export interface ShutdownLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ShutdownOptions {
  /** Stops the app (in-flight requests finish first) and releases the database. */
  close(): Promise<void>;
  log: ShutdownLog;
  drainMs: number;
  exit(code: number): void;
  /** setTimeout by default; tests pass their own so that they fire it instead of waiting. */
  schedule?: (run: () => void, ms: number) => void;
}

/**
 * One shutdown for every reason (SIGTERM, SIGINT, the parent going away): in-flight requests get
 * `drainMs` to finish, then the process exits by force, so that a hung request or a slow client
 * downloading a large file cannot keep an old process alive through a deploy. Later signals do not
 * cut the drain short: Ctrl-C in a terminal reaches both `npm start` (which forwards it) and the
 * server, so one keypress often arrives twice.
 */
export function createShutdown(opts: ShutdownOptions): (reason: string) => Promise<void> {
  // Not unref'd: exit(0) ends the process when closing finishes in time, and a close stuck on
  // something that holds no handle must still end in the forced exit, not in a silent one.
  const schedule = opts.schedule ?? ((run: () => void, ms: number) => void setTimeout(run, ms));
  let done: Promise<void> | undefined;
  return (reason) => {
    if (done) {
      opts.log.info({ reason }, 'already shutting down');
      return done;
    }
    opts.log.info({ reason, drainMs: opts.drainMs }, 'shutting down: finishing in-flight requests');
    schedule(() => {
      opts.log.error({ drainMs: opts.drainMs }, 'requests still running after the drain time; exiting anyway');
      opts.exit(1);
    }, opts.drainMs);
    done = opts.close().then(
      () => opts.exit(0),
      (err: unknown) => {
        opts.log.error({ err }, 'shutdown failed');
        opts.exit(1);
      },
    );
    return done;
  };
}

/**
 * The address to print after listen: the one the server really has (PORT=0 picks a free port),
 * with `localhost` for a wildcard host, which a browser cannot open.
 */
export function listenUrl(address: AddressInfo | string | null): string {
  if (address === null) return '(не слушает)';
  if (typeof address === 'string') return address;
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  const host = wildcard ? 'localhost' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
