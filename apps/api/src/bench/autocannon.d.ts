/**
 * The part of autocannon 8's programmatic API the benchmark's load process uses (the package ships
 * no types). `requests` are cycled per connection; `setupRequest` may rewrite each one before it is
 * sent (returning it with a path, method, headers, body), `onResponse` sees its answer. The
 * connection's `context` lives until the connection has gone through the whole list once.
 */
declare module 'autocannon' {
  export interface RequestParams {
    method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  export type Context = Record<string, unknown>;
  export interface Request extends RequestParams {
    setupRequest?: (request: RequestParams, context: Context) => RequestParams;
    onResponse?: (status: number, body: string, context: Context) => void;
  }
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** Requests in all, spread evenly over the connections (instead of a duration). */
    amount?: number;
    timeout?: number;
    requests?: Request[];
    headers?: Record<string, string>;
  }
  /** A connection: its list position and the context of the answer being reported. */
  export interface Client {
    requestIterator: { context: Context };
  }
  export interface Result {
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
  }
  export interface Instance extends PromiseLike<Result> {
    on(event: 'response', listener: (client: Client, status: number, bytes: number, ms: number) => void): this;
    stop(): void;
  }
  export default function autocannon(options: Options): Instance;
}
