import { type ComponentType, Suspense, lazy, useState } from 'react';

/**
 * A dialog or drawer whose code loads the first time it is opened rather than with the page: a
 * closed one draws nothing, so the page's first load need not carry it (decision 047). Once opened
 * it stays mounted, so it closes with its transition like any other.
 */
export function openedLazily<P extends { opened: boolean }>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Loaded = lazy(() => load().then((component) => ({ default: component })));
  return function OpenedLazily(props: P) {
    const [wanted, setWanted] = useState(props.opened);
    if (props.opened && !wanted) setWanted(true);
    if (!wanted) return null;
    return (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    );
  };
}
