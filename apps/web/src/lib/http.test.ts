import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { browser } from './browser';
import { mockHttp } from '../test/http';
import { http, HttpError, isHttpError, onResponseError, type RetryableRequestConfig } from './http';

describe('http client', () => {
  let restore: () => void = () => {};
  let navigate: MockInstance<typeof browser.navigate>;

  beforeEach(() => {
    navigate = vi.spyOn(browser, 'navigate').mockImplementation(() => {});
    vi.spyOn(browser, 'pathname').mockReturnValue('/analytics');
  });
  afterEach(() => {
    restore();
    vi.restoreAllMocks();
  });

  it('uses the shared client settings (same origin, cookies, JSON, XHR marker, 10 s)', async () => {
    const mock = mockHttp({ 'GET /api/menu': { status: 200, data: { items: [] } } });
    restore = mock.restore;
    const { data } = await http.get('/api/menu');
    expect(data).toEqual({ items: [] });
    expect(http.defaults.baseURL).toBe('');
    expect(http.defaults.withCredentials).toBe(true);
    expect(http.defaults.timeout).toBe(10000);
    expect(http.defaults.xsrfCookieName).toBe('XSRF-TOKEN');
    expect(http.defaults.xsrfHeaderName).toBe('X-XSRF-TOKEN');
    const headers = mock.requests[0]?.headers ?? {};
    expect(headers['X-Requested-With']).toBe('XMLHttpRequest');
    expect(headers.Accept).toBe('application/json');
    // No body, no Content-Type (the server refuses an empty JSON body).
    expect(headers['Content-Type']).toBeUndefined();
  });

  it('sends a plain body as JSON and FormData as it is, with the browser’s multipart type', async () => {
    const mock = mockHttp({ 'POST /a': { status: 200 }, 'POST /b': { status: 201 } });
    restore = mock.restore;
    await http.post('/a', { name: 'Курс' });
    const form = new FormData();
    form.append('lesson_id', '3');
    await http.post('/b', form, { headers: { 'Content-Type': 'multipart/form-data' }, timeout: 0 });
    expect(mock.requests[0]?.body).toEqual({ name: 'Курс' });
    expect(mock.requests[0]?.headers['Content-Type']).toBe('application/json');
    expect(mock.requests[1]?.body).toBe(form);
    expect(mock.requests[1]?.headers['Content-Type']).toBeUndefined();
  });

  it('puts a new Idempotency-Key on every same-origin POST, and none on other methods', async () => {
    const mock = mockHttp({
      'POST /api/study-groups': { status: 201 },
      'GET /api/study-groups': { status: 200 },
      'PUT /api/study-groups/1': { status: 200 },
      'POST https://elsewhere.example/x': { status: 200 },
    });
    restore = mock.restore;
    const form = new FormData();
    await http.post('/api/study-groups', { name: 'Новички' });
    await http.post('/api/study-groups', form);
    await http.get('/api/study-groups');
    await http.put('/api/study-groups/1', { name: 'Новички' });
    await http.post('https://elsewhere.example/x', {});
    const keys = mock.requests.map((r) => r.headers['Idempotency-Key']);
    expect(keys[0]).toMatch(/^[A-Za-z0-9-]{1,64}$/);
    expect(keys[1]).toMatch(/^[A-Za-z0-9-]{1,64}$/);
    expect(keys[1]).not.toBe(keys[0]);
    expect(keys.slice(2)).toEqual([undefined, undefined, undefined]);
  });

  it('makes the key without crypto.randomUUID, which plain-HTTP pages lack', async () => {
    vi.stubGlobal('crypto', { getRandomValues: crypto.getRandomValues.bind(crypto) });
    const mock = mockHttp({ 'POST /a': { status: 200 } });
    restore = mock.restore;
    try {
      await http.post('/a', {});
    } finally {
      vi.unstubAllGlobals();
    }
    expect(mock.requests[0]?.headers['Idempotency-Key']).toMatch(/^[0-9a-f]{32}$/);
  });

  it('echoes the XSRF-TOKEN cookie as X-XSRF-TOKEN on same-origin calls only', async () => {
    document.cookie = 'XSRF-TOKEN=a%2Bb%3D';
    const mock = mockHttp({ 'POST /login': { status: 200 }, 'GET https://elsewhere.example/x': { status: 200 } });
    restore = mock.restore;
    try {
      await http.post('/login', {});
      await http.get('https://elsewhere.example/x');
      expect(mock.requests[0]?.headers['X-XSRF-TOKEN']).toBe('a+b=');
      expect(mock.requests[1]?.headers['X-XSRF-TOKEN']).toBeUndefined();
    } finally {
      document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
    }
  });

  it('sends the browser to /login by a full-page navigation on 401 and still rejects', async () => {
    const mock = mockHttp({
      'GET /api/menu': { status: 401, data: { result: { success: false, message: 'x' } } },
    });
    restore = mock.restore;

    const error: unknown = await http.get('/api/menu').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(isHttpError(error)).toBe(true);
    expect((error as HttpError).response?.status).toBe(401);
    expect((error as HttpError).response?.data).toEqual({ result: { success: false, message: 'x' } });
    expect(navigate).toHaveBeenCalledTimes(1);
    expect(navigate).toHaveBeenCalledWith('/login');
    expect(((error as HttpError).config as RetryableRequestConfig)._retry).toBe(true);

    // Retrying the same request (retry flag set) rejects again without a second redirect.
    await expect(http.request((error as HttpError).config ?? {})).rejects.toBeInstanceOf(HttpError);
    expect(navigate).toHaveBeenCalledTimes(1);
  });

  it('does not redirect when the page already is /login', async () => {
    vi.spyOn(browser, 'pathname').mockReturnValue('/login');
    const mock = mockHttp({ 'POST /login': { status: 401 } });
    restore = mock.restore;
    await expect(http.post('/login', {})).rejects.toBeInstanceOf(HttpError);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('does not redirect a call made with loginRedirect: false (before the session is known)', async () => {
    const mock = mockHttp({ 'GET /api/user/courses': { status: 401 } });
    restore = mock.restore;
    const error: unknown = await http.get('/api/user/courses', { loginRedirect: false }).catch((e: unknown) => e);
    expect((error as HttpError).response?.status).toBe(401);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('leaves other statuses to the caller', async () => {
    const mock = mockHttp({
      'GET /a': { status: 403 },
      'GET /b': { status: 500 },
      'POST /c': { status: 422 },
    });
    restore = mock.restore;
    await expect(http.get('/a')).rejects.toBeInstanceOf(HttpError);
    await expect(http.get('/b')).rejects.toBeInstanceOf(HttpError);
    await expect(http.post('/c')).rejects.toBeInstanceOf(HttpError);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('interceptor alone: a flagged config is not redirected again; a non-HTTP error passes through', async () => {
    const config: RetryableRequestConfig = { headers: {}, _retry: true };
    const flagged = new HttpError('401', 'ERR_BAD_REQUEST', config, { status: 401, data: null, config });
    await expect(onResponseError(flagged)).rejects.toBe(flagged);
    const plain = new Error('boom');
    await expect(onResponseError(plain)).rejects.toBe(plain);
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe('http client over fetch', () => {
  let fetchMock: MockInstance<typeof fetch>;

  beforeEach(() => {
    fetchMock = vi.spyOn(globalThis, 'fetch');
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('sends the call with the session cookie and parses the JSON answer', async () => {
    fetchMock.mockResolvedValue(new Response('{"result":{"success":true}}', { status: 200 }));
    const { data, status } = await http.put('/api/x', { a: 1 });
    expect(status).toBe(200);
    expect(data).toEqual({ result: { success: true } });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/x');
    expect(init).toMatchObject({ method: 'PUT', body: '{"a":1}', credentials: 'include' });
  });

  it('rejects a non-2xx answer with its status and body; text and empty bodies stay as they are', async () => {
    fetchMock.mockResolvedValueOnce(new Response('{"result":{"message":"Нет"}}', { status: 422 }));
    const error: unknown = await http.post('/api/x', {}).catch((e: unknown) => e);
    expect(isHttpError(error) && error.response?.status).toBe(422);
    expect(isHttpError(error) && error.response?.data).toEqual({ result: { message: 'Нет' } });
    fetchMock.mockResolvedValueOnce(new Response('ok', { status: 200 }));
    expect((await http.get('/api/text')).data).toBe('ok');
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }));
    expect((await http.delete('/api/empty')).data).toBe('');
  });

  it('a call without an answer rejects with no response (network error)', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const error: unknown = await http.get('/api/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(isHttpError(error) && error.response).toBeUndefined();
  });

  it('gives up after the time-out', async () => {
    vi.useFakeTimers();
    fetchMock.mockImplementation(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const pending = http.get('/api/slow').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10000);
    const error = await pending;
    expect(isHttpError(error) && error.code).toBe('ECONNABORTED');
    expect(isHttpError(error) && error.response).toBeUndefined();
  });
});

describe('http client with upload progress (XMLHttpRequest)', () => {
  const original = globalThis.XMLHttpRequest;
  afterEach(() => {
    globalThis.XMLHttpRequest = original;
  });

  it('reports the progress of the body and resolves with the answer', async () => {
    const sent: { method?: string; url?: string; headers: Record<string, string>; body?: unknown } = { headers: {} };
    class FakeXhr {
      upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
      withCredentials = false;
      timeout = 0;
      status = 0;
      responseText = '';
      onload: (() => void) | null = null;
      onerror: (() => void) | null = null;
      onabort: (() => void) | null = null;
      ontimeout: (() => void) | null = null;
      open(method: string, url: string) {
        sent.method = method;
        sent.url = url;
      }
      setRequestHeader(name: string, value: string) {
        sent.headers[name] = value;
      }
      send(body: unknown) {
        sent.body = body;
        this.upload.onprogress?.({ loaded: 50, total: 200, lengthComputable: true } as ProgressEvent);
        this.status = 200;
        this.responseText = '{"result":{"url":"/storage/a.pdf"}}';
        this.onload?.();
      }
    }
    globalThis.XMLHttpRequest = FakeXhr as unknown as typeof XMLHttpRequest;
    const form = new FormData();
    const progress: { loaded: number; total?: number }[] = [];
    const { data } = await http.post('/api/upload-file', form, {
      headers: { 'Content-Type': 'multipart/form-data' },
      timeout: 0,
      onUploadProgress: (event) => progress.push(event),
    });
    expect(data).toEqual({ result: { url: '/storage/a.pdf' } });
    expect(progress).toEqual([{ loaded: 50, total: 200 }]);
    expect(sent).toMatchObject({ method: 'POST', url: '/api/upload-file', body: form });
    expect(sent.headers['Content-Type']).toBeUndefined();
    expect(sent.headers['X-Requested-With']).toBe('XMLHttpRequest');
  });
});
