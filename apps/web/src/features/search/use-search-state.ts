import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { type SearchQuery, readSearchQuery, searchQueryRecord } from '../../shared/search-query.ts';

/** The search lives in the query string; every change replaces it (empty values removed). */
export function useSearchState() {
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => readSearchQuery(params), [params]);
  const update = useCallback(
    (patch: Partial<Record<keyof SearchQuery, string | null | undefined>>) => {
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
