import 'maplibre-gl/dist/maplibre-gl.css';
import './map-view.css';
import { LngLatBounds, Map as MapLibreMap, NavigationControl, Popup, type StyleSpecification } from 'maplibre-gl';
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { useInRouterContext, useNavigate } from '../router/react.tsx';
import { MAP_MAX_ZOOM, MAP_ZOOM } from '@ampere/domain/constants';
import { CarPins } from './car-pins.ts';
import { normaliseBounds, popupOffsets, samePoint } from './geometry.ts';
import { PIN_CLASS, createLotPopupContent, createPopupContent, isPlainClick, pinName } from './marker-dom.ts';
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

/** Until the offline basemap's chunk arrives: land colour, so the pins can be drawn at once. */
const BLANK_STYLE: StyleSpecification = {
  version: 8,
  sources: {},
  layers: [{ id: 'background', type: 'background', paint: { 'background-color': '#f2efe6' } }],
};

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
  showAllRequest,
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
      // `id` is a car's (its own pin, or its lot's pin) or a lot pin's key (the list of its cars).
      const layer = carsRef.current;
      const lot = layer?.pin(id);
      const data = layer?.marker(id);
      const pin = lot ?? layer?.pinOf(id);
      if (!pin) return;
      closePopup();
      const content =
        data || pin.cars.length === 1
          ? createPopupContent(data ?? pin.cars[0]!)
          : createLotPopupContent(pin.place ?? { id, name: pin.cars[0]!.title }, pin.cars);
      for (const link of content.querySelectorAll('a'))
        link.addEventListener('click', (e) => followLink(e, link.getAttribute('href')!));
      const popup = new Popup({
        closeButton: true,
        // Clicks on the map are handled below, so a click on another pin does not close the popup it opens.
        closeOnClick: false,
        focusAfterOpen: !byHover,
        offset: popupOffsets(pin.offset, pin.size ?? PILL_SIZE),
        maxWidth: '300px',
      })
        .setLngLat(pin.at)
        .setDOMContent(content)
        .addTo(target);
      pin.el.setAttribute('aria-expanded', 'true');
      popup.on('close', () => {
        pin.el.setAttribute('aria-expanded', 'false');
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
      const camera = cameraRef.current;
      created = new MapLibreMap({
        container,
        // The offline basemap arrives in its own chunk; the pins do not wait for it.
        style: styleUrl ?? BLANK_STYLE,
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
      layer = new CarPins(m, {
        onPinClick: (key) => {
          const open = popupRef.current;
          if (open?.id === key && !open.byHover) closePopup();
          else openPopup(m, key, false);
        },
        onSync: () => {
          const open = popupRef.current;
          if (!open) return;
          const pin = carsRef.current?.pin(open.id) ?? carsRef.current?.pinOf(open.id);
          pin?.el.setAttribute('aria-expanded', 'true');
        },
      });
      carsRef.current = layer;
      setCars(layer);
      m.on('load', () => {
        setReady(true);
        report();
      });
      m.on('moveend', report);
      m.on('click', (e) => {
        const target = e.originalEvent.target;
        if (!(target instanceof Element && target.closest(`.${PIN_CLASS}`))) closePopup();
      });
      setMap(m);
      if (!styleUrl) {
        const style = await loadOfflineStyle();
        if (!cancelled) m.setStyle(style);
      }
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

  // 'Zoom out': the map moves until every car is in view.
  useEffect(() => {
    if (!map || !cars || !showAllRequest) return;
    const points = cars.points();
    if (points.length === 0) return;
    const bounds = points.reduce((b, p) => b.extend(p), new LngLatBounds(points[0], points[0]));
    map.fitBounds(bounds, { padding: 60, maxZoom: MAP_ZOOM, animate: !prefersReducedMotion() });
  }, [map, cars, showAllRequest]);

  // The card under the pointer: its pin is highlighted and its popup open.
  useEffect(() => {
    if (!map || !cars) return;
    cars.setActive(activeMarkerId ?? null);
    if (activeMarkerId && cars.pinOf(activeMarkerId)) {
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
      const pin = carsRef.current?.pin(open.id) ?? carsRef.current?.pinOf(open.id);
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
