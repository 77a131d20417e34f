/**
 * A paced run (load.ts, with a `rate`): the same request lists as autocannon, sent by `connections`
 * virtual users at an even pace, for the latency at a given load. autocannon's own `overallRate`
 * releases each second's requests in bursts (a bare Fastify hello at 1 000 requests/s showed p99
 * 159 ms that way), which measures its bursts, not the server.
 *
 * Each user has one keep-alive connection and walks the list in order with its own context (renewed
 * when the list comes round, as autocannon's is); its requests are due every `connections / rate`
 * seconds, users spread evenly over that interval. A request is sent when it is due or, when the
 * answer before it came late, as soon as that answer is in; its latency counts from when it was due,
 * so a server that falls behind is charged for the wait it caused (no coordinated omission).
 */
import { Agent, request as httpRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Context, Request, RequestParams } from 'autocannon';

export interface PacedAnswer {
  kind: string;
  status: number;
  ms: number;
}

export interface PacedSpec {
  url: string;
  requests: readonly Request[];
  connections: number;
  /** Requests per second from all users together. */
  rate: number;
  seconds: number;
  /** The default kind of a request whose setup names none. */
  kind: string;
  timeoutSeconds: number;
}

export interface PacedOutcome {
  answers: PacedAnswer[];
  /** Connection errors and time-outs. */
  errors: number;
  timeouts: number;
  seconds: number;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

function send(
  url: URL,
  agent: Agent,
  params: RequestParams,
  timeoutMs: number,
): Promise<{ status: number; body: string } | 'timeout' | 'error'> {
  return new Promise((resolve) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: params.method ?? 'GET',
        path: params.path ?? '/',
        headers: params.headers,
        agent,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', () => resolve('error'));
      },
    );
    req.on('timeout', () => {
      req.destroy();
      resolve('timeout');
    });
    req.on('error', () => resolve('error'));
    req.end(params.body);
  });
}

export async function pacedRun(spec: PacedSpec): Promise<PacedOutcome> {
  const url = new URL(spec.url);
  const interval = (1000 * spec.connections) / spec.rate;
  const started = performance.now();
  const end = started + spec.seconds * 1000;
  const outcome: PacedOutcome = { answers: [], errors: 0, timeouts: 0, seconds: 0 };
  const user = async (index: number) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    let context: Context = {};
    let due = started + (index * interval) / spec.connections;
    for (let i = 0; due < end; i++, due += interval) {
      const position = i % spec.requests.length;
      if (position === 0 && i > 0) context = {};
      const entry = spec.requests[position];
      if (!entry) break;
      await wait(due - performance.now());
      const base: RequestParams = {
        method: entry.method ?? 'GET',
        path: entry.path ?? '/',
        headers: entry.headers ?? {},
      };
      const params = entry.setupRequest ? entry.setupRequest(base, context) : base;
      const answer = await send(url, agent, params, spec.timeoutSeconds * 1000);
      if (answer === 'timeout') outcome.timeouts++;
      if (answer === 'timeout' || answer === 'error') {
        outcome.errors++;
        continue;
      }
      entry.onResponse?.(answer.status, answer.body, context);
      const kind = typeof context.kind === 'string' ? context.kind : spec.kind;
      outcome.answers.push({ kind, status: answer.status, ms: performance.now() - due });
    }
    agent.destroy();
  };
  await Promise.all(Array.from({ length: spec.connections }, (_, i) => user(i)));
  outcome.seconds = (performance.now() - started) / 1000;
  return outcome;
}
