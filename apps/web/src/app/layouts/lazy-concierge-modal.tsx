import { openedLazily } from '../../shared/ui/opened-lazily.tsx';

/**
 * The concierge dialog, loaded the first time it is opened: every page's navbar offers it, and
 * keeping its code out of the first download keeps /search within its budget. Once loaded it
 * stays mounted, so it closes with its transition.
 */
export const LazyConciergeModal = openedLazily(() => import('./concierge-modal.tsx').then((m) => m.ConciergeModal));
