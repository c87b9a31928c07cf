import 'maplibre-gl/dist/maplibre-gl.css';
import './map-view.css';
import { Map as MapLibreMap, Marker, NavigationControl, Popup } from 'maplibre-gl';
import { type KeyboardEvent, type RefObject, useEffect, useRef, useState } from 'react';
import { useInRouterContext, useNavigate } from 'react-router';
import { MAP_MAX_ZOOM, MAP_ZOOM } from '@ampere/domain/constants';
import { type PixelOffset, fanOutOffsets, normaliseBounds, popupOffsets, samePoint } from './geometry.ts';
import { PIN_ACTIVE_CLASS, PIN_CLASS, createPin, createPopupContent, isPlainClick, pinName, updatePin } from './marker-dom.ts';
import { loadOfflineStyle } from './offline-style.ts';
import type { MapMarker, MapPoint, MapViewProps } from './types.ts';

type Navigate = (href: string) => void;

interface Pin {
  marker: Marker;
  el: HTMLButtonElement;
  data: MapMarker;
  offset: PixelOffset;
}

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
export default function MapView({ center, zoom, markers, activeMarkerId, onBoundsChange, styleUrl, ariaLabel, height }: MapViewProps) {
  const inRouter = useInRouterContext();
  const navigateRef = useRef<Navigate | null>(null);
  const containerRef = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<MapLibreMap | null>(null);
  const [failed, setFailed] = useState(() => !hasWebGL());
  const [ready, setReady] = useState(false);
  const pinsRef = useRef(new Map<string, Pin>());
  const popupRef = useRef<OpenPopup | null>(null);
  const cameraRef = useRef<{ center: MapPoint; zoom: number }>({ center, zoom: zoom ?? MAP_ZOOM });
  const boundsRef = useRef(onBoundsChange);
  useEffect(() => {
    boundsRef.current = onBoundsChange;
  }, [onBoundsChange]);

  const followLink = (e: MouseEvent, href: string) => {
    if (navigateRef.current && isPlainClick(e)) {
      e.preventDefault();
      navigateRef.current(href);
    }
  };

  const closePopup = () => popupRef.current?.popup.remove();

  const openPopup = (target: MapLibreMap, id: string, byHover: boolean) => {
    const pin = pinsRef.current.get(id);
    if (!pin) return;
    closePopup();
    const content = createPopupContent(pin.data);
    const link = content.querySelector('a');
    if (link) link.addEventListener('click', (e) => followLink(e, link.getAttribute('href')!));
    const popup = new Popup({
      closeButton: true,
      // Clicks on the map are handled below, so a click on another pin does not close the popup it opens.
      closeOnClick: false,
      focusAfterOpen: !byHover,
      offset: popupOffsets(pin.offset, PILL_SIZE),
      maxWidth: '280px',
    })
      .setLngLat(lngLat(pin.data))
      .setDOMContent(content)
      .addTo(target);
    pin.el.setAttribute('aria-expanded', 'true');
    popup.on('close', () => {
      pin.el.setAttribute('aria-expanded', 'false');
      if (popupRef.current?.popup === popup) popupRef.current = null;
    });
    popupRef.current = { id, popup, byHover };
  };

  // The map itself: created once per style, removed on unmount.
  useEffect(() => {
    if (failed || !containerRef.current) return;
    const container = containerRef.current;
    let cancelled = false;
    let created: MapLibreMap | null = null;
    const pins = pinsRef.current;
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
        boundsRef.current?.(normaliseBounds({ north: b.getNorth(), south: b.getSouth(), east: b.getEast(), west: b.getWest() }));
      };
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
    })().catch((err: unknown) => {
      // No WebGL after all, or the basemap could not load: the list below still works.
      console.error('The map could not be shown', err);
      if (!cancelled) setFailed(true);
    });
    return () => {
      cancelled = true;
      popupRef.current?.popup.remove();
      popupRef.current = null;
      for (const pin of pins.values()) pin.marker.remove();
      pins.clear();
      created?.remove();
      setMap(null);
      setReady(false);
    };
  }, [failed, styleUrl]);

  // A new search location moves the camera; the same place in a new object does not.
  useEffect(() => {
    if (!map) return;
    const wanted = { center, zoom: zoom ?? MAP_ZOOM };
    const last = cameraRef.current;
    if (samePoint(last.center, wanted.center) && last.zoom === wanted.zoom) return;
    cameraRef.current = wanted;
    const target = { center: lngLat(wanted.center), zoom: wanted.zoom };
    if (prefersReducedMotion()) map.jumpTo(target);
    else map.flyTo({ ...target, duration: 800 });
  }, [map, center.latitude, center.longitude, zoom]);

  // Pins follow the markers: added, moved, relabelled, removed, and fanned out where they overlap.
  useEffect(() => {
    if (!map) return;
    const pins = pinsRef.current;
    const wanted = new Set(markers.map((m) => m.id));
    for (const [id, pin] of pins) {
      if (wanted.has(id)) continue;
      if (popupRef.current?.id === id) closePopup();
      pin.marker.remove();
      pins.delete(id);
    }
    const offsets = fanOutOffsets(markers);
    markers.forEach((m, i) => {
      const offset = offsets[i]!;
      let pin = pins.get(m.id);
      if (!pin) {
        const el = createPin(m);
        el.setAttribute('aria-expanded', 'false');
        el.addEventListener('click', (e) => {
          e.stopPropagation();
          const open = popupRef.current;
          if (open?.id === m.id && !open.byHover) closePopup();
          else openPopup(map, m.id, false);
        });
        pin = { marker: new Marker({ element: el, anchor: 'bottom' }).setLngLat(lngLat(m)).addTo(map), el, data: m, offset };
        pins.set(m.id, pin);
      } else if (pin.data !== m) {
        updatePin(pin.el, m);
        pin.marker.setLngLat(lngLat(m));
        pin.data = m;
      }
      pin.offset = offset;
      pin.marker.setOffset([offset.x, offset.y]);
    });
    const open = popupRef.current;
    if (open && pins.has(open.id)) openPopup(map, open.id, open.byHover);
  }, [map, markers]);

  // The card under the pointer: its pin is highlighted and its popup open.
  useEffect(() => {
    if (!map) return;
    for (const [id, pin] of pinsRef.current) pin.el.classList.toggle(PIN_ACTIVE_CLASS, id === activeMarkerId);
    if (activeMarkerId && pinsRef.current.has(activeMarkerId)) {
      if (popupRef.current?.id !== activeMarkerId) openPopup(map, activeMarkerId, true);
    } else if (popupRef.current?.byHover) {
      closePopup();
    }
  }, [map, activeMarkerId, markers]);

  const onKeyDown = (e: KeyboardEvent) => {
    const open = popupRef.current;
    if (e.key !== 'Escape' || !open) return;
    const pin = pinsRef.current.get(open.id);
    const focusWasInPopup = open.popup.getElement()?.contains(document.activeElement) ?? false;
    closePopup();
    if (focusWasInPopup) pin?.el.focus();
  };

  const bridge = inRouter ? <RouterBridge target={navigateRef} /> : null;

  if (failed) {
    return (
      <div role="region" aria-label={ariaLabel} className="ampere-map-fallback" data-map-state="fallback" style={{ height: height ?? 400 }}>
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
    <div role="region" aria-label={ariaLabel} className="ampere-map" data-map-state={ready ? 'ready' : 'loading'} style={{ height: height ?? 400 }} onKeyDown={onKeyDown}>
      {bridge}
      <div ref={containerRef} style={{ position: 'absolute', inset: 0 }} />
    </div>
  );
}
