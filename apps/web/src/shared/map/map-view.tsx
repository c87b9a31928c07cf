import 'maplibre-gl/dist/maplibre-gl.css';
import './map-view.css';
import { Map as MapLibreMap, NavigationControl, Popup } from 'maplibre-gl';
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { useInRouterContext, useNavigate } from '../router/react.tsx';
import { MAP_MAX_ZOOM, MAP_ZOOM } from '@ampere/domain/constants';
import { CarPins } from './car-pins.ts';
import { normaliseBounds, popupOffsets, samePoint } from './geometry.ts';
import { CLUSTER_CLASS, PIN_CLASS, createPopupContent, isPlainClick, pinName } from './marker-dom.ts';
import { loadOfflineStyle } from './offline-style.ts';
import type { MapPoint, MapViewProps } from './types.ts';

type Navigate = (href: string) => void;

interface OpenPopup {
  id: string;
  popup: Popup;
  /** Opened because the renter hovers the car's card, not by a click on the pin. */
  byHover: boolean;
}

const PILL_SIZE = { width: 56, height: 26 };

function hasWebGL(): boolean {
  try {
    const canvas = document.createElement('canvas');
    const gl = canvas.getContext('webgl2') ?? canvas.getContext('webgl');
    gl?.getExtension('WEBGL_lose_context')?.loseContext();
    return gl !== null;
  } catch {
    return false;
  }
}

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

const lngLat = (p: MapPoint): [number, number] => [p.longitude, p.latitude];

/** Lets links inside the map use the single-page router when there is one. */
function RouterBridge({ target }: { target: RefObject<Navigate | null> }) {
  const navigate = useNavigate();
  useEffect(() => {
    target.current = (href) => void navigate(href);
    return () => {
      target.current = null;
    };
  }, [navigate, target]);
  return null;
}

/** The search map: MapLibre with price pins, popups and the visible bounds reported back. */
export default function MapView({
  center,
  zoom,
  markers,
  activeMarkerId,
  onBoundsChange,
  styleUrl,
  ariaLabel,
  height,
}: MapViewProps) {
  const inRouter = useInRouterContext();
  const navigateRef = useRef<Navigate | null>(null);
  const containerRef = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<MapLibreMap | null>(null);
  const [failed, setFailed] = useState(() => !hasWebGL());
  const [ready, setReady] = useState(false);
  const [cars, setCars] = useState<CarPins | null>(null);
  const carsRef = useRef<CarPins | null>(null);
  const popupRef = useRef<OpenPopup | null>(null);
  const cameraRef = useRef<{ center: MapPoint; zoom: number }>({ center, zoom: zoom ?? MAP_ZOOM });
  const boundsRef = useRef(onBoundsChange);
  useEffect(() => {
    boundsRef.current = onBoundsChange;
  }, [onBoundsChange]);

  // These read only refs, so one instance serves every render and the effects below can list them.
  const followLink = useCallback((e: MouseEvent, href: string) => {
    if (navigateRef.current && isPlainClick(e)) {
      e.preventDefault();
      navigateRef.current(href);
    }
  }, []);

  const closePopup = useCallback(() => popupRef.current?.popup.remove(), []);

  const openPopup = useCallback(
    (target: MapLibreMap, id: string, byHover: boolean) => {
      // A car inside a group has no pin of its own yet; its popup still opens at its place.
      const data = carsRef.current?.marker(id);
      if (!data) return;
      const pin = carsRef.current?.pin(id);
      closePopup();
      const content = createPopupContent(data);
      const link = content.querySelector('a');
      if (link) link.addEventListener('click', (e) => followLink(e, link.getAttribute('href')!));
      const popup = new Popup({
        closeButton: true,
        // Clicks on the map are handled below, so a click on another pin does not close the popup it opens.
        closeOnClick: false,
        focusAfterOpen: !byHover,
        offset: popupOffsets(pin?.offset ?? { x: 0, y: 0 }, pin ? PILL_SIZE : { width: 0, height: 0 }),
        maxWidth: '280px',
      })
        .setLngLat(lngLat(data))
        .setDOMContent(content)
        .addTo(target);
      pin?.el.setAttribute('aria-expanded', 'true');
      popup.on('close', () => {
        carsRef.current?.pin(id)?.el.setAttribute('aria-expanded', 'false');
        if (popupRef.current?.popup === popup) popupRef.current = null;
      });
      popupRef.current = { id, popup, byHover };
    },
    [closePopup, followLink],
  );

  // The map itself: created once per style, removed on unmount.
  useEffect(() => {
    if (failed || !containerRef.current) return;
    const container = containerRef.current;
    let cancelled = false;
    let created: MapLibreMap | null = null;
    let layer: CarPins | null = null;
    (async () => {
      const style = styleUrl ?? (await loadOfflineStyle());
      if (cancelled) return;
      const camera = cameraRef.current;
      created = new MapLibreMap({
        container,
        style,
        center: lngLat(camera.center),
        zoom: camera.zoom,
        maxZoom: MAP_MAX_ZOOM,
        attributionControl: { compact: true },
        dragRotate: false,
        pitchWithRotate: false,
        touchPitch: false,
      });
      const m = created;
      m.touchZoomRotate.disableRotation();
      m.keyboard.disableRotation();
      m.addControl(new NavigationControl({ showCompass: false }), 'top-right');
      const report = () => {
        const b = m.getBounds();
        boundsRef.current?.(
          normaliseBounds({ north: b.getNorth(), south: b.getSouth(), east: b.getEast(), west: b.getWest() }),
        );
      };
      m.on('load', () => {
        layer = new CarPins(m, {
          onPinClick: (id) => {
            const open = popupRef.current;
            if (open?.id === id && !open.byHover) closePopup();
            else openPopup(m, id, false);
          },
          onSync: () => {
            const open = popupRef.current;
            if (open) carsRef.current?.pin(open.id)?.el.setAttribute('aria-expanded', 'true');
          },
          reducedMotion: prefersReducedMotion,
        });
        carsRef.current = layer;
        setCars(layer);
        setReady(true);
        report();
      });
      m.on('moveend', report);
      m.on('click', (e) => {
        const target = e.originalEvent.target;
        if (!(target instanceof Element && target.closest(`.${PIN_CLASS}, .${CLUSTER_CLASS}`))) closePopup();
      });
      setMap(m);
    })().catch((err: unknown) => {
      // No WebGL after all, or the basemap could not load: the list below still works.
      console.error('The map could not be shown', err);
      if (!cancelled) setFailed(true);
    });
    return () => {
      cancelled = true;
      popupRef.current?.popup.remove();
      popupRef.current = null;
      layer?.destroy();
      carsRef.current = null;
      created?.remove();
      setMap(null);
      setCars(null);
      setReady(false);
    };
  }, [failed, styleUrl, closePopup, openPopup]);

  // A new search location moves the camera; the same place in a new object does not.
  const { latitude, longitude } = center;
  useEffect(() => {
    if (!map) return;
    const wanted = { center: { latitude, longitude }, zoom: zoom ?? MAP_ZOOM };
    const last = cameraRef.current;
    if (samePoint(last.center, wanted.center) && last.zoom === wanted.zoom) return;
    cameraRef.current = wanted;
    const target = { center: lngLat(wanted.center), zoom: wanted.zoom };
    if (prefersReducedMotion()) map.jumpTo(target);
    else map.flyTo({ ...target, duration: 800 });
  }, [map, latitude, longitude, zoom]);

  // The cars follow the markers; the layer decides which stand alone and which are grouped.
  useEffect(() => {
    if (!map || !cars) return;
    const open = popupRef.current;
    if (open && !markers.some((m) => m.id === open.id)) closePopup();
    cars.setMarkers(markers);
    if (open && popupRef.current === open) openPopup(map, open.id, open.byHover);
  }, [map, cars, markers, closePopup, openPopup]);

  // The card under the pointer: its pin is highlighted and its popup open.
  useEffect(() => {
    if (!map || !cars) return;
    cars.setActive(activeMarkerId ?? null);
    if (activeMarkerId && cars.marker(activeMarkerId)) {
      if (popupRef.current?.id !== activeMarkerId) openPopup(map, activeMarkerId, true);
    } else if (popupRef.current?.byHover) {
      closePopup();
    }
  }, [map, cars, activeMarkerId, markers, closePopup, openPopup]);

  // Escape closes the open popup. Pins and popups are the focusable parts; their key presses
  // bubble to the map's box, which listens for them without becoming a control itself.
  const regionRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const region = regionRef.current;
    if (!region) return;
    const onKeyDown = (e: KeyboardEvent) => {
      const open = popupRef.current;
      if (e.key !== 'Escape' || !open) return;
      const pin = carsRef.current?.pin(open.id);
      const focusWasInPopup = open.popup.getElement()?.contains(document.activeElement) ?? false;
      closePopup();
      if (focusWasInPopup) pin?.el.focus();
    };
    region.addEventListener('keydown', onKeyDown);
    return () => region.removeEventListener('keydown', onKeyDown);
  }, [failed, closePopup]);

  const bridge = inRouter ? <RouterBridge target={navigateRef} /> : null;

  if (failed) {
    return (
      <div
        role="region"
        aria-label={ariaLabel}
        className="ampere-map-fallback"
        data-map-state="fallback"
        style={{ height: height ?? 400 }}
      >
        {bridge}
        <p>The map can’t be shown in this browser. These are the cars it would show:</p>
        <ul>
          {markers.map((m) => (
            <li key={m.id}>
              {m.href ? (
                <a href={m.href} onClick={(e) => followLink(e.nativeEvent, m.href!)}>
                  {pinName(m)}
                </a>
              ) : (
                pinName(m)
              )}
              {m.description ? ` — ${m.description}` : null}
            </li>
          ))}
        </ul>
      </div>
    );
  }

  return (
    <div
      role="region"
      aria-label={ariaLabel}
      className="ampere-map"
      data-map-state={ready ? 'ready' : 'loading'}
      style={{ height: height ?? 400 }}
      ref={regionRef}
    >
      {bridge}
      <div ref={containerRef} style={{ position: 'absolute', inset: 0 }} />
    </div>
  );
}
