import { http, HttpError, type HttpAdapter, type RequestConfig } from '../lib/http';

export interface RecordedRequest {
  method: string;
  url: string;
  body: unknown;
  headers: Record<string, unknown>;
}

export interface MockReply {
  status: number;
  data?: unknown;
}

/** A handler answers a request, or throws to simulate a network failure. */
type Handler = MockReply | ((request: RecordedRequest) => MockReply | Promise<MockReply>);

function parseBody(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

/**
 * Mocks HTTP at the network boundary: replaces the adapter (fetch / XMLHttpRequest) of the app's
 * client, so headers, the 401 handling and error handling all run as in the browser. Routes are
 * 'METHOD /path' (answering that path with any query string too, unless 'METHOD /path?query' has
 * its own route); unknown routes answer 404. Returns the list of recorded requests.
 */
export function mockHttp(routes: Record<string, Handler>): {
  requests: RecordedRequest[];
  restore: () => void;
} {
  const requests: RecordedRequest[] = [];
  const original = http.defaults.adapter;
  const adapter: HttpAdapter = async (config: RequestConfig) => {
    const method = (config.method ?? 'get').toUpperCase();
    const url = config.url ?? '';
    const request: RecordedRequest = {
      method,
      url,
      body: parseBody(config.data),
      headers: { ...config.headers },
    };
    requests.push(request);
    // 'GET /path' also answers 'GET /path?query' unless that has its own route
    const handler = routes[`${method} ${url}`] ?? routes[`${method} ${url.split('?')[0]}`];
    const reply: MockReply = handler
      ? typeof handler === 'function'
        ? await handler(request)
        : handler
      : { status: 404, data: { result: { success: false, message: 'Не найдено' } } };
    // The client itself rejects answers that are not 2xx, as with a real server.
    return { data: reply.data, status: reply.status, config };
  };
  http.defaults.adapter = adapter;
  return {
    requests,
    restore: () => {
      http.defaults.adapter = original;
    },
  };
}

/** A failure with no answer at all (network down, time-out). */
export function networkError(): never {
  throw new HttpError('Network Error', 'ERR_NETWORK');
}

export const testConfig = {
  company_name: 'ООО «Ромашка»',
  login_domain: 'company.ru',
  time_zone: 'Europe/Moscow',
  oidc_label: null as string | null,
};

export const testZiggy = {
  url: 'http://localhost',
  port: null,
  defaults: {},
  routes: {
    login: { uri: 'login', methods: ['POST'] },
    logout: { uri: 'api/logout', methods: ['POST'] },
    menu: { uri: 'api/menu', methods: ['GET', 'HEAD'] },
    'check-auth': { uri: 'api/check-auth', methods: ['GET', 'HEAD'] },
  },
};
