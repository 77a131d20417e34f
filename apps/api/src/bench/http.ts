/**
 * A small HTTP load client for the benchmarks: keep-alive connections, a cap on requests in
 * flight (like autocannon's connections), latency per labelled call measured from dispatch on a
 * free connection to the end of the answer, so that waiting in the client's own queue is not
 * counted as server time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';

export interface Answer {
  status: number;
  /** Decoded on first read: like autocannon, a call whose answer is not looked at never decodes it. */
  readonly body: string;
}

function answerOf(status: number, chunks: Buffer[]): Answer {
  let body: string | undefined;
  return {
    status,
    get body() {
      body ??= Buffer.concat(chunks).toString('utf8');
      return body;
    },
  };
}

export class LoadClient {
  private readonly agent: Agent;
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];
  readonly latencies = new Map<string, number[]>();
  errors = 0;

  constructor(
    private readonly base: string,
    private readonly connections: number,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: connections });
  }

  private async slot(): Promise<void> {
    if (this.inFlight < this.connections) {
      this.inFlight++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.inFlight--;
  }

  async call(
    label: string,
    method: 'GET' | 'POST',
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<Answer> {
    await this.slot();
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const started = performance.now();
    try {
      const answer = await new Promise<Answer>((resolve, reject) => {
        const req = request(
          `${this.base}${path}`,
          {
            method,
            agent: this.agent,
            headers: payload ? { ...headers, 'content-type': 'application/json' } : headers,
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve(answerOf(res.statusCode ?? 0, chunks)));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(payload);
      });
      const list = this.latencies.get(label) ?? [];
      list.push(performance.now() - started);
      this.latencies.set(label, list);
      if (answer.status >= 400) this.errors++;
      return answer;
    } catch (error) {
      this.errors++;
      throw error;
    } finally {
      this.release();
    }
  }

  /** Forgets what was measured so far (a warm-up), keeping the open connections. */
  resetCounts(): void {
    this.latencies.clear();
    this.errors = 0;
  }

  close(): void {
    this.agent.destroy();
  }

  /** Keeps `connections` requests in flight for `seconds`; each loop turn is one `step`. */
  async saturate(seconds: number, step: (turn: number) => Promise<unknown>): Promise<number> {
    const until = performance.now() + seconds * 1000;
    let turns = 0;
    const loop = async () => {
      while (performance.now() < until) await step(turns++).catch(() => undefined);
    };
    await Promise.all(Array.from({ length: this.connections }, loop));
    return turns;
  }
}

export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

/**
 * Starts the built server (`dist/server.js`) as its own process on a free port and resolves with
 * its address once it prints it.
 */
export function startServer(
  env: Record<string, string>,
  script = new URL('../server.js', import.meta.url).pathname,
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [...(process.env.BENCH_SERVER_ARGS?.split(' ').filter(Boolean) ?? []), script],
    {
      env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const found = /запущена: (http:\/\/[^\s]+)/.exec(out);
      if (found?.[1]) resolve({ url: found[1], child });
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before listening:\n${out}`)));
  });
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
