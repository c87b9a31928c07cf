import { type ComponentProps, Suspense, lazy, useState } from 'react';
import type { ConciergeModal as Modal } from './concierge-modal.tsx';

const ConciergeModal = lazy(() => import('./concierge-modal.tsx').then((m) => ({ default: m.ConciergeModal })));

/**
 * The concierge dialog, loaded the first time it is opened: every page's navbar offers it, and
 * keeping its code out of the first download keeps /search within its budget. Once loaded it
 * stays mounted, so it closes with its transition.
 */
export function LazyConciergeModal(props: ComponentProps<typeof Modal>) {
  const [wanted, setWanted] = useState(props.opened);
  if (props.opened && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <ConciergeModal {...props} />
    </Suspense>
  );
}
