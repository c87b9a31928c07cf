import { QueryClient } from '@tanstack/react-query';

/** One query cache for the app; logout clears it (the router's /logout needs it outside React). */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } },
});
