import type { IncomingMessage, ServerResponse } from 'node:http';
import net, { type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.js';

/**
 * Stopping without resets (SIGTERM in server.ts: `stopAccepting()`, then `app.close()`). This server
 * closes a connection only when the client knows it is coming: after an answer with `Connection:
 * close`, or once the connection has sent nothing for `idleMs`. Whatever else tears a connection down
 * resets the requests on their way over it (the client sees ECONNRESET or "socket hang up"):
 *
 * - closing the listening socket resets the connections that the kernel has accepted and the process
 *   has not taken yet (requests sent just before the signal): the event loop takes them first, while
 *   answers still keep their connections (Fastify's own closing answers `Connection: close`, and the
 *   clients' new connections would then meet the closing port: hence a step before `app.close()`);
 * - Node's `server.close()` destroys the idle kept-alive connections, on which a client may be sending
 *   its next request at that moment: `app.close()` lets Fastify close the server only once every
 *   connection is gone. A request on an idle connection gets 503 with `Connection: close`;
 * - exiting while connections are open resets them: `app.close()` resolves only once none is left.
 *
 * The port is released at once (no new connection is accepted), so the next process may start.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answered by the route itself while stopping (the health checks say why), not by the drain's 503. */
    answersWhileStopping?: true;
  }
}

/** Turns of the event loop that may pass, taking connections, before the port closes. */
const ACCEPT_TURNS = 20;

export interface Drain {
  /** Takes the connections the kernel holds, closes the port; from then on every answer closes its connection. */
  stopAccepting(): Promise<void>;
  /** Whether `stopAccepting` has begun: readiness answers 503 from that moment (platform/health.ts). */
  stopping(): boolean;
}

export function installDrain(app: FastifyInstance, opts: { idleMs: number; message: string }): Drain {
  /** Every open connection and how many of its requests are being answered. */
  const connections = new Map<Socket, number>();
  let accepted = 0;
  let inFlight = 0;
  let closing = false;
  let drained: (() => void) | undefined;
  const settle = () => {
    if (closing && inFlight === 0 && connections.size === 0) drained?.();
  };
  const idleTimers = new Map<Socket, NodeJS.Timeout>();
  /** Closes the connection unless a request comes on it within `idleMs` (as the keep-alive timeout would). */
  const closeWhenIdle = (socket: Socket) => {
    clearTimeout(idleTimers.get(socket));
    const timer = setTimeout(() => {
      if (connections.get(socket) === 0) socket.destroy();
    }, opts.idleMs);
    timer.unref();
    idleTimers.set(socket, timer);
  };

  app.server.on('connection', (socket: Socket) => {
    accepted++;
    connections.set(socket, 0);
    socket.once('close', () => {
      connections.delete(socket);
      clearTimeout(idleTimers.get(socket));
      idleTimers.delete(socket);
      settle();
    });
  });
  // Node's own event, for every request read (also those Fastify answers before any hook).
  app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    const busy = connections.get(socket);
    if (busy === undefined) return;
    connections.set(socket, busy + 1);
    if (closing) res.setHeader('connection', 'close');
    // 'close' comes once per response, also when the client went away before the answer.
    res.once('close', () => {
      const left = connections.get(socket);
      if (left === undefined) return;
      connections.set(socket, left - 1);
      // Answered with `Connection: close`: the client closes it; one that does not is closed for it.
      if (closing && left === 1) closeWhenIdle(socket);
    });
  });

  app.addHook('onRequest', async (request, reply) => {
    inFlight++;
    reply.raw.once('close', () => {
      inFlight--;
      settle();
    });
    if (closing) {
      reply.header('connection', 'close');
      if (request.routeOptions.config?.answersWhileStopping !== true) throw new HttpError(503, opts.message);
    }
  });
  // While closing every answer ends its connection, so that none stays open for another request.
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });

  let stopped: Promise<void> | undefined;
  const stopAccepting = () =>
    (stopped ??= (async () => {
      // Turns of the event loop until one takes no connection (a turn's poll takes all there are),
      // a few at most. From the check phase on, each setImmediate waits for the next turn's poll.
      const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
      await nextTurn();
      for (let turn = 0, seen = -1; turn < ACCEPT_TURNS && seen !== accepted; turn++) {
        seen = accepted;
        await nextTurn();
      }
      closing = true;
      // net.Server's own close stops accepting without the http layer's destroying of idle connections.
      if (app.server.listening) net.Server.prototype.close.call(app.server);
      for (const [socket, busy] of connections) if (busy === 0) closeWhenIdle(socket);
    })());

  app.addHook('preClose', async () => {
    await stopAccepting();
    if (inFlight > 0 || connections.size > 0) await new Promise<void>((resolve) => (drained = resolve));
  });
  return { stopAccepting, stopping: () => stopped !== undefined };
}
