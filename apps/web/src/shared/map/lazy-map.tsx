import { Loader, Center } from '@mantine/core';
import { type RefObject, Suspense, lazy, useEffect, useRef, useState } from 'react';
import type { MapViewProps } from './types.ts';

const loadMapView = () => import('./map-view.tsx');
const MapView = lazy(loadMapView);

/** The map starts loading once any of its box is on the screen (a phone's vehicle and trip pages have it just below the fold). */
const NEAR_VIEWPORT = '0px';

/**
 * True once the element is near the viewport and the page has painted and gone idle: MapLibre's
 * download and WebGL set-up then never compete with the page's first paint and its photos.
 */
function useNearViewportAfterPaint<T extends Element>(eager: boolean): [RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || ready) return;
    let idle: number | undefined;
    const start = () => {
      if (eager) {
        setReady(true);
        return;
      }
      // requestIdleCallback is missing in some browsers (Safari): a timeout after paint does.
      idle =
        typeof requestIdleCallback === 'function'
          ? requestIdleCallback(() => setReady(true), { timeout: 2000 })
          : window.setTimeout(() => setReady(true), 200);
    };
    if (typeof IntersectionObserver !== 'function') {
      start();
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer.disconnect();
        start();
      },
      { rootMargin: NEAR_VIEWPORT },
    );
    observer.observe(el);
    return () => {
      observer.disconnect();
      if (idle === undefined) return;
      if (typeof cancelIdleCallback === 'function') cancelIdleCallback(idle);
      else window.clearTimeout(idle);
    };
  }, [ready, eager]);
  return [ref, ready];
}

/**
 * The map, loaded on first use so pages without a map never download MapLibre, and only once it
 * is near the screen (with `eager`, at once then; else once the page has also gone idle). Its box keeps the map's height meanwhile, so nothing moves when it arrives.
 */
export function LazyMap({ eager = false, ...props }: MapViewProps & { eager?: boolean }) {
  const [ref, ready] = useNearViewportAfterPaint<HTMLDivElement>(eager);
  // An eager map's code starts downloading with the page's data, so its pins follow the results at once.
  useEffect(() => {
    if (eager) void loadMapView();
  }, [eager]);
  const placeholder = (
    <Center ref={ref} h={props.height ?? 400} bg="gray.1" role="status" aria-label={`${props.ariaLabel} (loading)`}>
      <Loader size="sm" />
    </Center>
  );
  if (!ready) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <MapView {...props} />
    </Suspense>
  );
}
