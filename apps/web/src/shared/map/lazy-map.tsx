import { Loader, Center } from '@mantine/core';
import { Suspense, lazy } from 'react';
import type { MapViewProps } from './types.ts';

const MapView = lazy(() => import('./map-view.tsx'));

/** The map, loaded on first use so pages without a map never download MapLibre. */
export function LazyMap(props: MapViewProps) {
  return (
    <Suspense
      fallback={
        <Center h={props.height ?? 400} bg="gray.1" role="status" aria-label={`${props.ariaLabel} (loading)`}>
          <Loader size="sm" />
        </Center>
      }
    >
      <MapView {...props} />
    </Suspense>
  );
}
