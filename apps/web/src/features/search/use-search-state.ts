import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useLocation, useNavigation, useSearchParams } from 'react-router';
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
  const update = useCallback(
    (patch: Partial<Record<keyof SearchQuery, string | null | undefined>>) => {
      if (leaving.current) return;
      setParams(
        (prev) => {
          const next: SearchQuery = { ...readSearchQuery(prev) };
          for (const [k, v] of Object.entries(patch) as [keyof SearchQuery, string | null | undefined][]) {
            if (v) next[k] = v;
            else delete next[k];
          }
          const record = searchQueryRecord(next);
          const out = new URLSearchParams();
          for (const [k, v] of Object.entries(record)) if (v) out.set(k, v);
          return out;
        },
        { replace: true },
      );
    },
    [setParams],
  );
  return { query, update };
}
