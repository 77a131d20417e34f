/** Building blocks of the workloads' requests (workloads.ts, mix.ts, examFlow.ts). */
import type { Context, Request, RequestParams } from 'autocannon';
import { random, type SessionHeaders } from './layout.js';

export type Step = RequestParams & { kind: string };
export interface Answer {
  status: number;
  body: string;
}

/** A request whose setup names its kind and fills in path, headers and body. */
export function step(
  kind: string,
  method: RequestParams['method'],
  path: string,
  headers: SessionHeaders,
  body?: unknown,
): Step {
  return {
    kind,
    method,
    path,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  };
}

/** A request list entry that asks `next` what to send, recording its kind in the context. */
export function dynamic(next: (context: Context) => Step): Request {
  return {
    setupRequest: (request, context) => {
      const { kind, ...params } = next(context);
      context.kind = kind;
      return { ...request, ...params, headers: { ...request.headers, ...params.headers } };
    },
  };
}

/** Employees in a shuffled order, cycled: consecutive views come from different people. */
export function cycle<T>(items: readonly T[], seed: number): () => T {
  const next = random(seed);
  const order = items.map((item) => ({ item, key: next() }));
  order.sort((a, b) => a.key - b.key);
  let at = 0;
  return () => {
    const found = order[at++ % order.length];
    if (!found) throw new Error('cycle over nothing');
    return found.item;
  };
}

/** The JSON of an answer, or undefined when it is not JSON (a failed call). */
export function json(answer: Answer | undefined): unknown {
  try {
    return answer && answer.status < 300 ? (JSON.parse(answer.body) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

/** The value at a path of keys in parsed JSON, when there is one. */
export function at(value: unknown, ...path: string[]): unknown {
  let v = value;
  for (const key of path) v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined;
  return v;
}

/** A sequence of requests in which each step sees the answer to the one before. */
export type Flow = Generator<Step, void, Answer>;

/**
 * A request list driven by flows: each connection runs one flow after another (a learner's visit, an
 * exam), asking `nextFlow` for a new one when its flow ends. Each answer is handed to its flow as it
 * arrives (the flow's last step included, which no later request would otherwise follow). A
 * connection's context lives for `length` requests; a flow running then is dropped.
 */
export function flowRequests(nextFlow: () => Flow, length: number): Request[] {
  const running = new WeakMap<Context, { flow: Flow; next: IteratorResult<Step, void> }>();
  const entry: Request = {
    ...dynamic((context) => {
      for (let tries = 0; tries < 100; tries++) {
        let actor = running.get(context);
        if (!actor) {
          const flow = nextFlow();
          running.set(context, (actor = { flow, next: flow.next() }));
        }
        if (!actor.next.done) return actor.next.value;
        running.delete(context);
      }
      throw new Error('flows without steps');
    }),
    onResponse: (status, body, context) => {
      const actor = running.get(context);
      if (actor && !actor.next.done) actor.next = actor.flow.next({ status, body });
    },
  };
  return Array.from({ length }, () => entry);
}
