import { createServer, request, type Server } from 'node:http';
import { freePort } from './haproxy.js';

/**
 * Stand-in processes behind a balancer that misbehave on purpose, for the tests of the repo's
 * balancer configurations (deploy/haproxy.cfg, deploy/nginx.conf): each case happens every time,
 * where a real process killed under load is caught wherever chance has its requests.
 */
export interface StandIn {
  address: string;
  /** Requests other than the check it received, as `METHOD path`. */
  seen: string[];
  close(): Promise<void>;
}

const standIns: Server[] = [];

/**
 * Healthy for the balancer's check (GET /readyz); every other request is read whole, then answered
 * 200 (`answer`), 503 as a process shutting down answers (`stopping`), or left without an answer, the
 * connection closed (`die`: a process killed while it held the request).
 */
export async function standIn(onRequest: 'answer' | 'stopping' | 'die'): Promise<StandIn> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    if (req.url === '/readyz') return res.end('{"status":"ready"}');
    seen.push(`${req.method} ${req.url}`);
    // Read the body first, as a process does before it applies a write.
    req.resume();
    req.on('end', () => {
      if (onRequest === 'die') return req.socket.destroy();
      res.statusCode = onRequest === 'stopping' ? 503 : 200;
      res.end(onRequest === 'stopping' ? '{"result":{"success":false}}' : '{"ok":true}');
    });
  });
  standIns.push(server);
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Closes every stand-in still listening. */
export async function closeStandIns(): Promise<void> {
  for (const s of standIns.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
}

export type Outcome = { status: number } | { error: string };

/** One request on a fresh connection (so that a balancer answers rather than closing a kept-alive one). */
export function send(url: string, method: string, path: string): Promise<Outcome> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const req = request({ host: hostname, port, method, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    req.end(method === 'POST' ? '{"a":1}' : undefined);
  });
}
