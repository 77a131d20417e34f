import {
  SIGN_IN_METHODS,
  SIGN_INS_PER_PAGE_DEFAULT,
  signInSettingsResponse,
  signInsResponse,
  type SignInEntry,
  type SignInMethod,
  type SignInSettings,
  UNSAFE_IN_LINE,
} from '@lms/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { parseAnswer } from '../../lib/answer';
import { resultMessage } from '../../lib/errors';
import { http } from '../../lib/http';
import { SIGN_IN_RESULTS, type SignInResult } from './signInTexts';

/** Queries of the sign-in tab (issue 33): the journal, a page at a time, and the admin's setting. */

export const SIGN_INS_PER_PAGE = SIGN_INS_PER_PAGE_DEFAULT;

/**
 * The search is sent this long after the last key: the employees and audit tabs' delay (importing
 * theirs would load those tabs' code with this one).
 */
export const SIGN_INS_SEARCH_DEBOUNCE_MS = 300;

/** The contract's longest search (`safeText(100)`): a longer one from an edited address is cut, not refused. */
const SEARCH_MAX = 100;

/** The journal's filters as the server takes them; an absent one is not filtered on. */
export interface SignInFilters {
  method?: SignInMethod;
  result?: SignInResult;
  search?: string;
}

/** The filters as query parameters, of the API call and of the page's own address alike; empty ones left out. */
export function signInParams(filters: SignInFilters): Record<string, string> {
  const out: Record<string, string> = {};
  if (filters.method) out.method = filters.method;
  if (filters.result) out.result = filters.result;
  if (filters.search) out.search = filters.search;
  return out;
}

/**
 * The filters and the page of an address (`?method=ldap&result=failure&search=…&page=2`). Whatever
 * the contract would refuse — a hand-edited or an old link — is dropped, so the page still opens.
 */
export function signInFiltersOf(params: URLSearchParams): { filters: SignInFilters; page: number } {
  const method = SIGN_IN_METHODS.find((m) => m === params.get('method'));
  const result = SIGN_IN_RESULTS.find((r) => r === params.get('result'));
  const search = cleanSearch(params.get('search') ?? '');
  const page = Number(params.get('page'));
  return {
    filters: { method, result, search: search || undefined },
    page: Number.isSafeInteger(page) && page > 1 && page <= 1_000_000 ? page : 1,
  };
}

/** What the contract refuses in a line of text, every occurrence. */
const UNSAFE = new RegExp(UNSAFE_IN_LINE.source, 'gu');

/** A search as the server takes it: trimmed, at most 100 characters, none of the characters it refuses. */
export function cleanSearch(text: string): string {
  return text.replace(UNSAFE, '').trim().slice(0, SEARCH_MAX).trim();
}

export interface SignInsPage {
  /** The filters these rows were found for (the next ones may still load). */
  filters: SignInFilters;
  items: SignInEntry[];
  total: number;
  page: number;
  per_page: number;
}

export const signInKeys = {
  journal: ['settings', 'sign-ins'] as const,
  page: (filters: SignInFilters, page: number, perPage: number) =>
    ['settings', 'sign-ins', signInParams(filters), page, perPage] as const,
  settings: ['settings', 'sign-in-settings'] as const,
};

/** GET /api/admin/sign-ins?page=…&per_page=…&method=…&result=…&search=…: one page, newest first. */
export const signInsQuery = (filters: SignInFilters, page: number, perPage = SIGN_INS_PER_PAGE) =>
  queryOptions({
    queryKey: signInKeys.page(filters, page, perPage),
    queryFn: async (): Promise<SignInsPage> => {
      const params = new URLSearchParams({ page: String(page), per_page: String(perPage), ...signInParams(filters) });
      const answer = parseAnswer(signInsResponse, (await http.get<unknown>(`/api/admin/sign-ins?${params}`)).data);
      return { filters, items: answer.items, total: answer.total, page: answer.page, per_page: answer.per_page };
    },
    // the rows shown stay while the next page or filter loads, so the table does not flash
    placeholderData: keepPreviousData,
  });

export function useSignIns(filters: SignInFilters, page: number, perPage = SIGN_INS_PER_PAGE) {
  return useQuery(signInsQuery(filters, page, perPage));
}

/** GET /api/admin/sign-in-settings: the setting and what the server is set up for. */
export const signInSettingsQuery = queryOptions({
  queryKey: signInKeys.settings,
  queryFn: async (): Promise<SignInSettings> =>
    parseAnswer(signInSettingsResponse, (await http.get<unknown>('/api/admin/sign-in-settings')).data).data,
});

export function useSignInSettings() {
  return useQuery(signInSettingsQuery);
}

export interface SavedSignInSettings {
  data: SignInSettings;
  /** The server's `result.message`, when it said one. */
  message: string | undefined;
}

/**
 * PUT /api/admin/sign-in-settings: the cached settings take the saved answer. Saves run one after
 * another (one scope), so that quick toggles reach the server in the order they were made.
 */
export function useSaveSignInSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (ssoOnly: boolean): Promise<SavedSignInSettings> => {
      const { data } = await http.put<unknown>('/api/admin/sign-in-settings', { sso_only: ssoOnly });
      return { data: parseAnswer(signInSettingsResponse, data).data, message: resultMessage(data) };
    },
    scope: { id: 'sign-in-settings' },
    onSuccess: (saved) => client.setQueryData(signInKeys.settings, saved.data),
  });
}

/** Browsers by their mark in a user agent, the more specific first (Edge and Opera also say 'Chrome'). */
const BROWSERS: [name: string, mark: RegExp][] = [
  ['Яндекс Браузер', /YaBrowser\/(\d+)/],
  ['Edge', /Edg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /(?:OPR|Opera)\/(\d+)/],
  ['Firefox', /(?:Firefox|FxiOS)\/(\d+)/],
  ['Chrome', /(?:Chrome|CriOS)\/(\d+)/],
  ['Safari', /Version\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari\//],
];
const SYSTEMS: [name: string, mark: RegExp][] = [
  ['Windows', /Windows/],
  ['Android', /Android/],
  ['iOS', /iPhone|iPad|iPod/],
  ['macOS', /Mac OS X|Macintosh/],
  ['Linux', /Linux|X11/],
];

/**
 * A user agent in a few words for the journal's narrow column: 'Chrome 131 · Windows'; one it
 * cannot read (a script, a mail client), its first 40 characters. The whole text stays in a tooltip.
 */
export function browserSummary(userAgent: string): string {
  const browser = BROWSERS.map(([name, mark]) => {
    const version = mark.exec(userAgent)?.[1];
    return version ? `${name} ${version}` : null;
  }).find((found) => found !== null);
  const system = SYSTEMS.find(([, mark]) => mark.test(userAgent))?.[0];
  if (browser) return system ? `${browser} · ${system}` : browser;
  const text = userAgent.trim();
  return text.length > 40 ? `${text.slice(0, 39).trimEnd()}…` : text;
}
