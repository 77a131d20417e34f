import axios, { isAxiosError, type InternalAxiosRequestConfig } from 'axios';
import { browser } from './browser';

/** Marks a request whose 401 already sent the browser to /login (spec 01 §2.2). */
export interface RetryableRequestConfig extends InternalAxiosRequestConfig {
  _retry?: boolean;
}

export const LOGIN_PATH = '/login';

/**
 * The one HTTP client of the app (spec 01 §7): same origin, cookie session, JSON, 10 s time-out.
 * axios echoes the XSRF-TOKEN cookie as X-XSRF-TOKEN on same-origin requests by itself
 * (default xsrfCookieName / xsrfHeaderName are kept).
 */
export const http = axios.create({
  baseURL: '',
  withCredentials: true,
  timeout: 10000,
  headers: {
    Accept: 'application/json',
    'Content-Type': 'application/json',
    'X-Requested-With': 'XMLHttpRequest',
  },
});

/**
 * A 401 answer to any call sends the browser to /login by a full-page navigation; the error is
 * still passed on to the caller. The retry flag on the request config keeps it from redirecting
 * twice, and nothing happens when the page already is /login. Other statuses are not handled here.
 */
export function onResponseError(error: unknown): Promise<never> {
  if (isAxiosError(error) && error.response?.status === 401) {
    const config = error.config as RetryableRequestConfig | undefined;
    if (config && !config._retry) {
      config._retry = true;
      if (browser.pathname() !== LOGIN_PATH) browser.navigate(LOGIN_PATH);
    }
  }
  return Promise.reject(error);
}

http.interceptors.response.use((response) => response, onResponseError);
