import type { SignInMethod } from '@lms/contract';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { cleanSearch, signInFiltersOf, signInParams, SIGN_INS_SEARCH_DEBOUNCE_MS, type SignInFilters } from './signIns';
import type { SignInResult } from './signInTexts';

/**
 * The journal's filters and page, kept in the address (`/settings/sign-in?result=failure&page=2`):
 * a reload, the back button or a link sent to a colleague shows the same rows. New filters start
 * again at page 1. The search box is the one thing typed: the address takes it once the typing
 * pauses, and without a new history entry for each pause.
 */
export function useSignInFilters() {
  const [params, setParams] = useSearchParams();
  const { filters, page } = signInFiltersOf(params);
  const [search, setSearch] = useState(filters.search ?? '');
  const [debounced] = useDebouncedValue(cleanSearch(search), SIGN_INS_SEARCH_DEBOUNCE_MS);

  const go = (next: SignInFilters, nextPage: number, replace = false) => {
    const query: Record<string, string> = signInParams(next);
    if (nextPage > 1) query.page = String(nextPage);
    setParams(query, { replace });
  };

  const shown = filters.search ?? '';
  // the search this box last put in the address: its own change, not one to show back in the box
  const sent = useRef<string | null>(null);
  // the typed search reaches the address once it settles (a new search: page 1)
  useEffect(() => {
    if (debounced === shown) return;
    sent.current = debounced;
    go({ ...filters, search: debounced || undefined }, 1, true);
    // only a settled search sends: the address changing is not a reason to send it again
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);
  // the address changed under the box (back, a link): the box shows its search, and what was being
  // typed is dropped (setting the box restarts the debounce, so it never sends the old text)
  useEffect(() => {
    if (shown === sent.current) {
      sent.current = null;
      return;
    }
    setSearch(shown);
  }, [shown]);

  return {
    filters,
    page,
    search,
    setSearch,
    setMethod: (method: SignInMethod | undefined) => go({ ...filters, method }, 1),
    setResult: (result: SignInResult | undefined) => go({ ...filters, result }, 1),
    setPage: (next: number) => go(filters, next),
    /** A page past the end (an old link) corrected: in place, so that back does not return to it. */
    fixPage: (next: number) => go(filters, next, true),
  };
}
