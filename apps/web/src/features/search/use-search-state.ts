import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useLocation, useNavigation, useSearchParams } from '../../shared/router/react.tsx';
import { type SearchQuery, readSearchQuery, searchQueryRecord } from '../../shared/search-query.ts';

/**
 * The search lives in the query string; every change replaces it (empty values removed). A change
 * made while the renter is already on the way to another page (a lazy page still loading) is
 * dropped: writing the query string then would navigate back here and cancel where they went.
 */
export function useSearchState() {
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => readSearchQuery(params), [params]);
  const navigation = useNavigation();
  const here = useLocation().pathname;
  const leaving = useRef(false);
  useEffect(() => {
    leaving.current = navigation.state !== 'idle' && navigation.location?.pathname !== here;
  }, [navigation, here]);
  // The query string as last written. The params of the last render lag behind a navigation still
  // landing, so two updates before a re-render (the page settling its defaults while the renter
  // clicks a filter) would drop the first; each update builds on this.
  const latest = useRef(params);
  const seen = useRef(params);
  if (seen.current !== params) {
    // A navigation (a link, back or forward) replaced the query string.
    seen.current = params;
    latest.current = params;
  }
  const update = useCallback(
    (patch: Partial<Record<keyof SearchQuery, string | null | undefined>>) => {
      if (leaving.current) return;
      const next: SearchQuery = { ...readSearchQuery(latest.current) };
      for (const [k, v] of Object.entries(patch) as [keyof SearchQuery, string | null | undefined][]) {
        if (v) next[k] = v;
        else delete next[k];
      }
      const out = new URLSearchParams();
      for (const [k, v] of Object.entries(searchQueryRecord(next))) if (v) out.set(k, v);
      // Writing the same query string again would still re-render the whole page.
      if (out.toString() === latest.current.toString()) return;
      latest.current = out;
      setParams(out, { replace: true });
    },
    [setParams],
  );
  return { query, update };
}
