import { Loader, Center } from '@mantine/core';
import { type RefObject, Suspense, lazy, useCallback, useEffect, useRef, useState } from 'react';
import { MAP_ZOOM } from '@ampere/domain/constants';
import { groupBySpot, projectToScreen, spreadOffsets } from './geometry.ts';
import { lotPinText } from './marker-dom.ts';
import type { MapMarker, MapViewProps } from './types.ts';

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

const PREVIEW_PIN_HEIGHT = 26;

/** A pin's width before it is drawn: its words at about 7.4 px a character, plus its padding. */
const previewWidth = (text: string) => Math.round(text.length * 7.4 + 20);

/**
 * The pins where the map will draw them, while MapLibre is still on its way: the renter sees each
 * price on its spot at once. Drawn for the eye only; the map's own pins, which can be clicked and
 * focused, replace them when it arrives.
 */
function PreviewPins({
  markers,
  center,
  zoom,
  width,
  height,
}: {
  markers: MapMarker[];
  center: MapViewProps['center'];
  zoom: number;
  width: number;
  height: number;
}) {
  const pins = groupBySpot(markers).map(({ key, members }) => {
    const first = members[0]!;
    const text = members.length === 1 ? (first.priceLabel ?? first.title) : lotPinText(members);
    return { key, text, lot: members.length > 1, at: projectToScreen(first, { center, zoom, width, height }) };
  });
  const offsets = spreadOffsets(
    pins.map((p) => ({ x: p.at.x, y: p.at.y, width: previewWidth(p.text), height: PREVIEW_PIN_HEIGHT })),
  );
  return (
    <div aria-hidden="true" style={{ position: 'absolute', inset: 0, overflow: 'hidden', pointerEvents: 'none' }}>
      {pins.map((p, i) => {
        const w = previewWidth(p.text);
        const left = p.at.x - w / 2 + offsets[i]!.x;
        const top = p.at.y - PREVIEW_PIN_HEIGHT + offsets[i]!.y;
        if (left + w < 0 || top + PREVIEW_PIN_HEIGHT < 0 || left > width || top > height) return null;
        return (
          <span
            key={p.key}
            className="ampere-map-preview-pin"
            style={{
              position: 'absolute',
              left,
              top,
              height: PREVIEW_PIN_HEIGHT,
              padding: '3px 9px',
              boxSizing: 'border-box',
              border: '1px solid #0b3d2e',
              borderRadius: 999,
              // As the map will draw them: a lot's pin dark, a single car's light.
              background: p.lot ? '#0b3d2e' : '#fff',
              color: p.lot ? '#fff' : '#0b3d2e',
              font: '600 13px/18px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
              whiteSpace: 'nowrap',
              boxShadow: '0 1px 3px rgb(0 0 0 / 25%)',
            }}
          >
            {p.text}
          </span>
        );
      })}
    </div>
  );
}

/** The size of the placeholder's box, once it is laid out (the fallback of Suspense is a new box: followed too). */
function useBoxSize(el: HTMLElement | null): { width: number; height: number } | null {
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  useEffect(() => {
    if (!el) return;
    const measure = () => {
      // A box taken off the page measures 0: keep the last size until the next one is laid out.
      if (el.clientWidth > 0 && el.clientHeight > 0) setSize({ width: el.clientWidth, height: el.clientHeight });
    };
    measure();
    if (typeof ResizeObserver !== 'function') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [el]);
  return size;
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
  const [box, setBox] = useState<HTMLDivElement | null>(null);
  const boxRef = useCallback(
    (el: HTMLDivElement | null) => {
      ref.current = el;
      if (el) setBox(el);
    },
    [ref],
  );
  const size = useBoxSize(box);
  const placeholder = (
    <Center
      ref={boxRef}
      h={props.height ?? 400}
      bg="gray.1"
      pos="relative"
      role="status"
      aria-label={`${props.ariaLabel} (loading)`}
    >
      <Loader size="sm" />
      {size && props.markers.length > 0 && (
        <PreviewPins
          markers={props.markers}
          center={props.center}
          zoom={props.zoom ?? MAP_ZOOM}
          width={size.width}
          height={size.height}
        />
      )}
    </Center>
  );
  if (!ready) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <MapView {...props} />
    </Suspense>
  );
}
