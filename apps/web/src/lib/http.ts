import { browser } from './browser';

export const LOGIN_PATH = '/login';

/** Upload progress of a request body (XMLHttpRequest's `upload.onprogress`). */
export interface UploadProgress {
  loaded: number;
  /** Undefined when the browser cannot tell the size. */
  total?: number;
}

/** One call: the shared settings of `http.defaults`, overridden per call where given. */
export interface RequestConfig {
  url?: string;
  /** 'get', 'post', … (any case; sent in upper case). */
  method?: string;
  /** A plain value is sent as JSON; FormData, Blob, URLSearchParams and strings as they are. */
  data?: unknown;
  headers?: Record<string, string>;
  baseURL?: string;
  withCredentials?: boolean;
  /** Milliseconds; 0 waits for ever. */
  timeout?: number;
  /** Reported while the body is sent; such a call goes through XMLHttpRequest. */
  onUploadProgress?: (event: UploadProgress) => void;
  /**
   * false: a 401 answer only rejects, without sending the browser to /login (a call made before the
   * session is known, e.g. the home page's lists at start-up).
   */
  loginRedirect?: boolean;
}

/** Marks a request whose 401 already sent the browser to /login (docs/product.md §Session). */
export interface RetryableRequestConfig extends RequestConfig {
  _retry?: boolean;
}

export interface HttpResponse<T = unknown> {
  /** The parsed JSON body; the text when it is not JSON, '' when empty. */
  data: T;
  status: number;
  config: RequestConfig;
}

/**
 * A failed call: `response` holds the status and the server's (parsed) body of a non-2xx answer,
 * and is undefined when no answer came back (network failure, time-out).
 */
export class HttpError<T = unknown> extends Error {
  readonly isHttpError = true;
  constructor(
    message: string,
    readonly code: 'ERR_BAD_REQUEST' | 'ERR_BAD_RESPONSE' | 'ERR_NETWORK' | 'ECONNABORTED',
    readonly config?: RequestConfig,
    readonly response?: HttpResponse<T>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export function isHttpError<T = unknown>(error: unknown): error is HttpError<T> {
  return error instanceof HttpError;
}

/** Sends a prepared call and resolves with the answer whatever its status; rejects when none came. */
export type HttpAdapter = (config: RequestConfig) => Promise<HttpResponse>;

function parseBody(text: string): unknown {
  if (text === '') return '';
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const fullUrl = (config: RequestConfig) => `${config.baseURL ?? ''}${config.url ?? ''}`;
const noAnswer = (config: RequestConfig) => new HttpError('Network Error', 'ERR_NETWORK', config);
const timedOut = (config: RequestConfig) =>
  new HttpError(`timeout of ${config.timeout ?? 0}ms exceeded`, 'ECONNABORTED', config);

/** The calls with upload progress: fetch cannot report it. */
function xhrAdapter(config: RequestConfig): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open((config.method ?? 'get').toUpperCase(), fullUrl(config), true);
    xhr.withCredentials = config.withCredentials ?? false;
    xhr.timeout = config.timeout ?? 0;
    for (const [name, value] of Object.entries(config.headers ?? {})) xhr.setRequestHeader(name, value);
    const onProgress = config.onUploadProgress;
    if (onProgress) {
      xhr.upload.onprogress = (event) =>
        onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : undefined });
    }
    xhr.onload = () => resolve({ data: parseBody(xhr.responseText), status: xhr.status, config });
    xhr.onerror = () => reject(noAnswer(config));
    xhr.onabort = () => reject(noAnswer(config));
    xhr.ontimeout = () => reject(timedOut(config));
    xhr.send((config.data as XMLHttpRequestBodyInit | undefined) ?? null);
  });
}

/** fetch, with the time-out as an abort; calls with upload progress go through XMLHttpRequest. */
async function browserAdapter(config: RequestConfig): Promise<HttpResponse> {
  if (config.onUploadProgress) return xhrAdapter(config);
  const controller = new AbortController();
  const timer = config.timeout ? setTimeout(() => controller.abort(), config.timeout) : undefined;
  try {
    const answer = await fetch(fullUrl(config), {
      method: (config.method ?? 'get').toUpperCase(),
      headers: config.headers,
      body: config.data as BodyInit | undefined,
      credentials: config.withCredentials ? 'include' : 'same-origin',
      signal: controller.signal,
    });
    // The time-out covers the body too.
    return { data: parseBody(await answer.text()), status: answer.status, config };
  } catch {
    throw controller.signal.aborted ? timedOut(config) : noAnswer(config);
  } finally {
    clearTimeout(timer);
  }
}

/** The value of a cookie, if set. */
function readCookie(name: string): string | undefined {
  const match = new RegExp(`(?:^|; )${name}=([^;]*)`).exec(document.cookie);
  if (!match?.[1]) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return match[1];
  }
}

/** Same origin: a path, or an absolute address of this page's origin. */
function isSameOrigin(url: string): boolean {
  try {
    return new URL(url, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

function withoutHeader(headers: Record<string, string>, name: string): Record<string, string> {
  const lower = name.toLowerCase();
  return Object.fromEntries(Object.entries(headers).filter(([key]) => key.toLowerCase() !== lower));
}

const isRaw = (data: unknown) =>
  typeof data === 'string' ||
  data instanceof FormData ||
  data instanceof Blob ||
  data instanceof URLSearchParams ||
  data instanceof ArrayBuffer;

const defaults = {
  baseURL: '',
  withCredentials: true,
  timeout: 10000,
  xsrfCookieName: 'XSRF-TOKEN',
  xsrfHeaderName: 'X-XSRF-TOKEN',
  headers: {
    Accept: 'application/json',
    'Content-Type': 'application/json',
    'X-Requested-With': 'XMLHttpRequest',
  } as Record<string, string>,
  /** How calls are sent; tests replace it (src/test/http.ts). */
  adapter: browserAdapter as HttpAdapter,
};

/**
 * A new key for one POST. `randomUUID` exists only on HTTPS pages and localhost; an intranet page
 * served over plain HTTP gets the same 128 random bits from `getRandomValues`, which exists everywhere.
 */
function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The call as it goes out: settings merged, body serialised, XSRF and idempotency headers set. */
function prepare(config: RequestConfig): RequestConfig {
  const { baseURL, withCredentials, timeout, xsrfCookieName, xsrfHeaderName } = defaults;
  const merged: RequestConfig = {
    baseURL,
    withCredentials,
    timeout,
    ...config,
    method: (config.method ?? 'get').toLowerCase(),
  };
  let headers = { ...defaults.headers, ...config.headers };
  let data = config.data;
  if (data === undefined || data === null) {
    data = undefined;
    headers = withoutHeader(headers, 'Content-Type');
  } else if (data instanceof FormData) {
    // The browser writes the multipart boundary itself.
    headers = withoutHeader(headers, 'Content-Type');
  } else if (!isRaw(data)) {
    data = JSON.stringify(data);
  }
  const token = readCookie(xsrfCookieName);
  const sameOrigin = isSameOrigin(fullUrl(merged));
  if (token !== undefined && sameOrigin) headers[xsrfHeaderName] = token;
  // A browser resends a POST whose connection a balancer closed without an answer, with the same
  // headers: the server answers a repeated key with the first answer instead of running it again
  // (docs/decisions.md §Several processes). Same origin only: elsewhere it would cost a preflight.
  if (merged.method === 'post' && sameOrigin) headers['Idempotency-Key'] = newIdempotencyKey();
  return { ...merged, data, headers };
}

/**
 * A 401 answer to any call sends the browser to /login by a full-page navigation; the error is
 * still passed on to the caller. The retry flag on the request config keeps it from redirecting
 * twice, and nothing happens when the page already is /login or the call says `loginRedirect:
 * false`. Other statuses are not handled here.
 */
export function onResponseError(error: unknown): Promise<never> {
  if (isHttpError(error) && error.response?.status === 401) {
    const config = error.config as RetryableRequestConfig | undefined;
    if (config && !config._retry && config.loginRedirect !== false) {
      config._retry = true;
      if (browser.pathname() !== LOGIN_PATH) browser.navigate(LOGIN_PATH);
    }
  }
  return Promise.reject(error);
}

async function request<T = unknown>(config: RequestConfig): Promise<HttpResponse<T>> {
  const prepared = prepare(config);
  try {
    const response = await defaults.adapter(prepared);
    if (response.status >= 200 && response.status < 300) return response as HttpResponse<T>;
    throw new HttpError(
      `Request failed with status code ${response.status}`,
      response.status >= 500 ? 'ERR_BAD_RESPONSE' : 'ERR_BAD_REQUEST',
      prepared,
      response,
    );
  } catch (error) {
    return onResponseError(error);
  }
}

type Options = Omit<RequestConfig, 'url' | 'method' | 'data'>;

/**
 * The one HTTP client of the app (docs/product.md §HTTP client): same origin, cookie session, JSON, 10 s time-out,
 * the XSRF-TOKEN cookie echoed as X-XSRF-TOKEN on same-origin calls. Non-2xx answers reject with
 * an HttpError that carries the status and the server's body.
 */
export const http = {
  defaults,
  request,
  get: <T = unknown>(url: string, options?: Options) => request<T>({ ...options, url, method: 'get' }),
  delete: <T = unknown>(url: string, options?: Options) => request<T>({ ...options, url, method: 'delete' }),
  post: <T = unknown>(url: string, data?: unknown, options?: Options) =>
    request<T>({ ...options, url, data, method: 'post' }),
  put: <T = unknown>(url: string, data?: unknown, options?: Options) =>
    request<T>({ ...options, url, data, method: 'put' }),
  patch: <T = unknown>(url: string, data?: unknown, options?: Options) =>
    request<T>({ ...options, url, data, method: 'patch' }),
};
