/**
 * The cars on the map as HTML pins, drawn as soon as the markers arrive (they need neither the
 * basemap nor a source to load). A car alone at its lot gets its price pin; several cars at one
 * lot share one pin ('12 cars · from $258.00') whose popup lists them. Pins that would cover each
 * other at the current zoom are moved apart (spec 9), and from LABEL_ZOOM on each pin carries its
 * lot's name and street, so the offline basemap still says where the cars are.
 */
import { type Map as MapLibreMap, Marker } from 'maplibre-gl';
import { type PixelOffset, groupBySpot, spreadOffsets } from './geometry.ts';
import { PIN_ACTIVE_CLASS, createLotPin, createPin, createPlaceLabel, updateLotPin, updatePin } from './marker-dom.ts';
import type { MapMarker, MapPlace } from './types.ts';

/** From this zoom on, each lot's name and street show under its pin. */
export const LABEL_ZOOM = 12;
export const LABELS_CLASS = 'ampere-map--labels';

export interface Pin {
  key: string;
  marker: Marker;
  el: HTMLButtonElement;
  /** The cars behind the pin: one, or every car at its lot. */
  cars: MapMarker[];
  place: MapPlace | undefined;
  at: [number, number];
  offset: PixelOffset;
  size: { width: number; height: number } | null;
}

export interface CarPinsOptions {
  /** A pin was clicked: its key is the car's id, or the lot's key for a shared pin. */
  onPinClick(key: string): void;
  /** Pins were added or removed (a popup may need its pin again). */
  onSync(): void;
}

export class CarPins {
  private readonly pins = new Map<string, Pin>();
  private readonly pinOfCar = new Map<string, string>();
  private data = new Map<string, MapMarker>();
  private active: string | null = null;

  constructor(
    private readonly map: MapLibreMap,
    private readonly opts: CarPinsOptions,
  ) {
    map.on('zoom', this.onZoom);
    map.on('resize', this.spread);
    map.on('load', this.spread);
    this.onZoom();
  }

  setMarkers(markers: readonly MapMarker[]): void {
    this.data = new Map(markers.map((m) => [m.id, m]));
    this.pinOfCar.clear();
    const wanted = new Set<string>();
    for (const group of groupBySpot(markers)) {
      const cars = group.members;
      const first = cars[0]!;
      const key = cars.length === 1 ? first.id : group.key;
      wanted.add(key);
      for (const car of cars) this.pinOfCar.set(car.id, key);
      const existing = this.pins.get(key);
      if (existing) {
        if (cars.length === 1) updatePin(existing.el, first);
        else updateLotPin(existing.el, first.place ?? placeOf(first), cars);
        existing.cars = cars;
        existing.size = null;
        continue;
      }
      this.pins.set(key, this.createPin(key, cars));
    }
    for (const [key, pin] of this.pins) {
      if (wanted.has(key)) continue;
      pin.marker.remove();
      this.pins.delete(key);
    }
    this.setActive(this.active);
    this.spread();
    this.opts.onSync();
  }

  marker(id: string): MapMarker | undefined {
    return this.data.get(id);
  }

  /** The pin a car is drawn with (its own, or its lot's). */
  pinOf(carId: string): Pin | undefined {
    const key = this.pinOfCar.get(carId);
    return key === undefined ? undefined : this.pins.get(key);
  }

  pin(key: string): Pin | undefined {
    return this.pins.get(key);
  }

  /** Every marker's place, for fitting the map around them. */
  points(): [number, number][] {
    return [...this.pins.values()].map((p) => p.at);
  }

  setActive(id: string | null): void {
    this.active = id;
    const activeKey = id === null ? undefined : this.pinOfCar.get(id);
    for (const [key, pin] of this.pins) pin.el.classList.toggle(PIN_ACTIVE_CLASS, key === activeKey);
  }

  private createPin(key: string, cars: MapMarker[]): Pin {
    const first = cars[0]!;
    const place = first.place;
    const el = cars.length === 1 ? createPin(first) : createLotPin(place ?? placeOf(first), cars);
    el.setAttribute('aria-expanded', 'false');
    el.addEventListener('click', (e) => {
      e.stopPropagation();
      this.opts.onPinClick(key);
    });
    // The pin and, below its point, the lot's label; the marker is anchored at the pin's point.
    const wrapper = document.createElement('div');
    wrapper.className = 'ampere-map-marker';
    wrapper.append(el);
    if (place) wrapper.append(createPlaceLabel(place));
    const at: [number, number] = [first.longitude, first.latitude];
    const marker = new Marker({ element: wrapper, anchor: 'bottom' }).setLngLat(at).addTo(this.map);
    // MapLibre makes a marker's element a button; here the pin inside it is the one control.
    wrapper.removeAttribute('role');
    wrapper.removeAttribute('aria-label');
    return {
      key,
      el,
      cars,
      place,
      at,
      offset: { x: 0, y: 0 },
      size: null,
      marker,
    };
  }

  private readonly onZoom = () => {
    this.map.getContainer().classList.toggle(LABELS_CLASS, this.map.getZoom() >= LABEL_ZOOM);
    this.spread();
  };

  /** Moves apart the pins that would cover each other at this zoom. */
  private readonly spread = () => {
    const list = [...this.pins.values()];
    const boxes = list.map((p) => {
      // Measured each time: a pin's text, and the fonts it is drawn in, may have changed since.
      p.size = { width: p.el.offsetWidth, height: p.el.offsetHeight };
      const point = this.map.project(p.at);
      return { x: point.x, y: point.y, ...p.size };
    });
    spreadOffsets(boxes).forEach((offset, i) => {
      const pin = list[i]!;
      if (offset.x === pin.offset.x && offset.y === pin.offset.y) return;
      pin.offset = offset;
      pin.marker.setOffset([offset.x, offset.y]);
    });
  };

  destroy(): void {
    this.map.off('zoom', this.onZoom);
    this.map.off('resize', this.spread);
    this.map.off('load', this.spread);
    for (const pin of this.pins.values()) pin.marker.remove();
    this.pins.clear();
    this.pinOfCar.clear();
  }
}

function placeOf(m: MapMarker): MapPlace {
  return { id: m.id, name: m.title };
}
