import { Agent, request, type IncomingHttpHeaders } from 'node:http';

/** An answer from one of the processes (any status but the balancer's own 502, 503, 504). */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

type Outcome = { answer: Answer } | { error: string };

/**
 * What the requests through the balancer came to. A request without a verdict got the balancer's
 * 502/503/504 or a broken connection: the process that had it may or may not have applied it.
 */
export class Tally {
  sent = 0;
  answered = 0;
  /** `METHOD path → what came back`, for each request that got no verdict. */
  readonly noVerdict: string[] = [];
  /** Repeated because repeating them changes nothing (reads, and writes idempotent by design). */
  repeated = 0;
  /** Writes without a verdict whose effect was read back before anything was sent again. */
  readBack = 0;
  /** Of those, the ones found applied (so not sent again). */
  foundApplied = 0;
}

/**
 * How a write without a verdict is handled: repeated when it is idempotent by the API's design, or
 * else `applied` reads the state back; only a write found not applied is sent again.
 */
export type OnNoVerdict = { idempotent: true } | { applied: () => Promise<boolean> };

/** Tries of one request before the test gives up on it (the balancer retries on its side too). */
const TRIES = 6;
const NO_VERDICT = new Set([502, 503, 504]);

/**
 * One person's browser as the web client behaves: cookies, the CSRF header, JSON; its connections come
 * from `localAddress` (one of 127.0.0.0/8), so that each person has an address of their own, as
 * the per-address limits see people behind a balancer.
 */
export class BalancedClient {
  readonly #cookies = new Map<string, string>();
  readonly #agent = new Agent({ keepAlive: true, maxSockets: 4 });

  constructor(
    readonly base: string,
    readonly localAddress: string,
    readonly tally: Tally,
  ) {}

  /** One request, as it came back; `extra` headers are sent as given. */
  send(method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<Outcome> {
    const { hostname, port } = new URL(this.base);
    const xsrf = this.#cookies.get('XSRF-TOKEN');
    const headers: Record<string, string> = { ...extra, 'x-requested-with': 'XMLHttpRequest' };
    if (this.#cookies.size > 0) headers.cookie = [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (xsrf) headers['x-xsrf-token'] = decodeURIComponent(xsrf);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    if (payload !== undefined) headers['content-type'] = 'application/json';
    this.tally.sent++;
    return new Promise((resolve) => {
      const req = request(
        { host: hostname, port, method, path, headers, agent: this.#agent, localAddress: this.localAddress },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => {
            this.#keep(res.headers['set-cookie'] ?? []);
            resolve({ answer: { status: res.statusCode ?? 0, headers: res.headers, body: text } });
          });
          res.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
        },
      );
      // Far beyond any answer here: a request that hangs is a failure, not a wait.
      req.setTimeout(120_000, () => req.destroy(new Error('no answer in 120 s')));
      req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
      req.end(payload);
    });
  }

  #keep(setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (!name) continue;
      if (value === '' || /max-age=0/i.test(line)) this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }

  /** The outcome as an answer, or undefined (counted) when a process gave no verdict. */
  #verdict(method: string, path: string, outcome: Outcome): Answer | undefined {
    const what = 'error' in outcome ? outcome.error : String(outcome.answer.status);
    if ('answer' in outcome && !NO_VERDICT.has(outcome.answer.status)) {
      this.tally.answered++;
      return outcome.answer;
    }
    this.tally.noVerdict.push(`${method} ${path} → ${what}`);
    return undefined;
  }

  /** A read: sent again until a process answers. */
  async get(path: string): Promise<Answer> {
    for (let attempt = 1; ; attempt++) {
      const answer = this.#verdict('GET', path, await this.send('GET', path));
      if (answer) return answer;
      if (attempt >= TRIES) throw new Error(`GET ${path}: no answer after ${TRIES} tries`);
      this.tally.repeated++;
      await pause(attempt);
    }
  }

  /**
   * A write until it has a verdict. Without one it is sent again only when that is safe: at once when
   * it is idempotent, else only once `applied` read the state back and found it not applied.
   * Resolves with the answer, or 'applied' when the read-back found it done.
   */
  async write(method: string, path: string, body: unknown, onNoVerdict: OnNoVerdict): Promise<Answer | 'applied'> {
    for (let attempt = 1; ; attempt++) {
      const answer = this.#verdict(method, path, await this.send(method, path, body));
      if (answer) return answer;
      if (attempt >= TRIES) throw new Error(`${method} ${path}: no answer after ${TRIES} tries`);
      await pause(attempt);
      if ('applied' in onNoVerdict) {
        this.tally.readBack++;
        if (await onNoVerdict.applied()) {
          this.tally.foundApplied++;
          return 'applied';
        }
      }
      this.tally.repeated++;
    }
  }

  /** The answer's JSON, read by the contract's schema of that answer. */
  static json<T>(answer: Answer, schema: { parse(value: unknown): T }): T {
    return schema.parse(JSON.parse(answer.body));
  }

  close(): void {
    this.#agent.destroy();
  }
}

/** Between tries: the balancer needs a moment to see a process gone (its checks run every 1–2 s). */
const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, 300 * attempt));
