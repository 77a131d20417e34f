import { AxiosError, type AxiosResponse } from 'axios';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { browser } from './browser';
import { mockHttp } from '../test/http';
import { http, onResponseError, type RetryableRequestConfig } from './http';

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
    await http.get('/api/menu');
    expect(http.defaults.baseURL).toBe('');
    expect(http.defaults.withCredentials).toBe(true);
    expect(http.defaults.timeout).toBe(10000);
    expect(http.defaults.xsrfCookieName).toBe('XSRF-TOKEN');
    expect(http.defaults.xsrfHeaderName).toBe('X-XSRF-TOKEN');
    const headers = mock.requests[0]?.headers ?? {};
    expect(headers['X-Requested-With']).toBe('XMLHttpRequest');
    expect(headers.Accept).toBe('application/json');
  });

  it('sends the browser to /login by a full-page navigation on 401 and still rejects', async () => {
    const mock = mockHttp({
      'GET /api/menu': { status: 401, data: { result: { success: false, message: 'x' } } },
    });
    restore = mock.restore;

    const error: unknown = await http.get('/api/menu').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AxiosError);
    expect((error as AxiosError).response?.status).toBe(401);
    expect(navigate).toHaveBeenCalledTimes(1);
    expect(navigate).toHaveBeenCalledWith('/login');
    expect(((error as AxiosError).config as RetryableRequestConfig)._retry).toBe(true);

    // Retrying the same request (retry flag set) rejects again without a second redirect.
    await expect(http.request((error as AxiosError).config ?? {})).rejects.toBeInstanceOf(AxiosError);
    expect(navigate).toHaveBeenCalledTimes(1);
  });

  it('does not redirect when the page already is /login', async () => {
    vi.spyOn(browser, 'pathname').mockReturnValue('/login');
    const mock = mockHttp({ 'POST /login': { status: 401 } });
    restore = mock.restore;
    await expect(http.post('/login', {})).rejects.toBeInstanceOf(AxiosError);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('leaves other statuses to the caller', async () => {
    const mock = mockHttp({
      'GET /a': { status: 403 },
      'GET /b': { status: 500 },
      'POST /c': { status: 422 },
    });
    restore = mock.restore;
    await expect(http.get('/a')).rejects.toBeInstanceOf(AxiosError);
    await expect(http.get('/b')).rejects.toBeInstanceOf(AxiosError);
    await expect(http.post('/c')).rejects.toBeInstanceOf(AxiosError);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('interceptor alone: a flagged config is not redirected again; a non-HTTP error passes through', async () => {
    const config = { headers: {}, _retry: true } as unknown as RetryableRequestConfig;
    const response = { status: 401, data: null, headers: {}, config, statusText: '' } as AxiosResponse;
    const flagged = new AxiosError('401', AxiosError.ERR_BAD_REQUEST, config, {}, response);
    await expect(onResponseError(flagged)).rejects.toBe(flagged);
    const plain = new Error('boom');
    await expect(onResponseError(plain)).rejects.toBe(plain);
    expect(navigate).not.toHaveBeenCalled();
  });
});
