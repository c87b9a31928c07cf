/**
 * The cars on the map: MapLibre's own clustering (a GeoJSON source with cluster: true) decides
 * which cars are drawn alone and which are grouped at the current zoom; this draws a price pin
 * for each car alone and a numbered button for each group. A group's button zooms in until it
 * splits. Cars at the very same spot never split, so at the last zoom their pins stand in columns.
 */
import { type GeoJSONSource, type Map as MapLibreMap, Marker } from 'maplibre-gl';
import type { FeatureCollection, Point } from 'geojson';
import { MAP_MAX_ZOOM } from '@ampere/domain/constants';
import { type PixelOffset, stackOffsets } from './geometry.ts';
import { PIN_ACTIVE_CLASS, createClusterButton, createPin, updateClusterButton, updatePin } from './marker-dom.ts';
import type { MapMarker } from './types.ts';

const SOURCE = 'ampere-cars';

export interface Pin {
  marker: Marker;
  el: HTMLButtonElement;
  data: MapMarker;
  offset: PixelOffset;
}

interface Group {
  marker: Marker;
  el: HTMLButtonElement;
  at: [number, number];
}

export interface CarPinsOptions {
  onPinClick(id: string): void;
  /** Pins were added or removed (a popup may need its pin again). */
  onSync(): void;
  reducedMotion(): boolean;
}

export class CarPins {
  private readonly pins = new Map<string, Pin>();
  private readonly groups = new Map<number, Group>();
  private data = new Map<string, MapMarker>();
  private shown = '';
  private active: string | null = null;

  constructor(
    private readonly map: MapLibreMap,
    private readonly opts: CarPinsOptions,
  ) {
    map.addSource(SOURCE, {
      type: 'geojson',
      data: { type: 'FeatureCollection', features: [] },
      cluster: true,
      clusterRadius: 44,
      // One step below the last zoom, so every group can be opened by zooming in.
      clusterMaxZoom: MAP_MAX_ZOOM - 1,
    });
    // An invisible layer keeps the source's tiles loaded so they can be queried.
    map.addLayer({
      id: `${SOURCE}-hit`,
      type: 'circle',
      source: SOURCE,
      paint: { 'circle-radius': 1, 'circle-opacity': 0 },
    });
    map.on('render', this.sync);
  }

  setMarkers(markers: readonly MapMarker[]): void {
    this.data = new Map(markers.map((m) => [m.id, m]));
    const collection: FeatureCollection<Point, { id: string }> = {
      type: 'FeatureCollection',
      features: markers.map((m) => ({
        type: 'Feature',
        properties: { id: m.id },
        geometry: { type: 'Point', coordinates: [m.longitude, m.latitude] },
      })),
    };
    (this.map.getSource(SOURCE) as GeoJSONSource | undefined)?.setData(collection);
    for (const [id, pin] of this.pins) {
      const next = this.data.get(id);
      if (next && next !== pin.data) {
        updatePin(pin.el, next);
        pin.data = next;
      }
    }
    this.shown = '';
  }

  marker(id: string): MapMarker | undefined {
    return this.data.get(id);
  }

  pin(id: string): Pin | undefined {
    return this.pins.get(id);
  }

  setActive(id: string | null): void {
    this.active = id;
    for (const [pinId, pin] of this.pins) pin.el.classList.toggle(PIN_ACTIVE_CLASS, pinId === id);
  }

  /** Reads which cars stand alone and which are grouped now, and updates the buttons to match. */
  private readonly sync = () => {
    if (!this.map.getSource(SOURCE) || !this.map.isSourceLoaded(SOURCE)) return;
    const singles = new Map<string, MapMarker>();
    const clusters = new Map<number, { count: number; at: [number, number] }>();
    // Tiles overlap at their edges, so the same feature can come back twice.
    for (const f of this.map.querySourceFeatures(SOURCE)) {
      const props = f.properties as { cluster?: boolean; cluster_id?: number; point_count?: number; id?: string };
      const at = (f.geometry as Point).coordinates as [number, number];
      if (props.cluster && props.cluster_id !== undefined)
        clusters.set(props.cluster_id, { count: props.point_count ?? 0, at });
      else if (props.id && this.data.has(props.id)) singles.set(props.id, this.data.get(props.id)!);
    }
    const key = `${[...singles.keys()].sort().join()}|${[...clusters]
      .map(([id, c]) => `${id}:${c.count}`)
      .sort()
      .join()}`;
    if (key === this.shown) return;
    this.shown = key;

    for (const [id, group] of this.groups) {
      if (clusters.has(id)) continue;
      group.marker.remove();
      this.groups.delete(id);
    }
    for (const [id, c] of clusters) {
      const existing = this.groups.get(id);
      if (existing) {
        updateClusterButton(existing.el, c.count);
        existing.marker.setLngLat(c.at);
        existing.at = c.at;
        continue;
      }
      const el = createClusterButton(c.count);
      el.addEventListener('click', (e) => {
        e.stopPropagation();
        const group = this.groups.get(id);
        if (group) void this.expand(id, group.at);
      });
      this.groups.set(id, { el, at: c.at, marker: new Marker({ element: el }).setLngLat(c.at).addTo(this.map) });
    }

    for (const [id, pin] of this.pins) {
      if (singles.has(id)) continue;
      pin.marker.remove();
      this.pins.delete(id);
    }
    const list = [...singles.values()];
    const offsets = stackOffsets(list);
    list.forEach((m, i) => {
      let pin = this.pins.get(m.id);
      if (!pin) {
        const el = createPin(m);
        el.setAttribute('aria-expanded', 'false');
        el.addEventListener('click', (e) => {
          e.stopPropagation();
          this.opts.onPinClick(m.id);
        });
        pin = {
          el,
          data: m,
          offset: { x: 0, y: 0 },
          marker: new Marker({ element: el, anchor: 'bottom' }).setLngLat([m.longitude, m.latitude]).addTo(this.map),
        };
        this.pins.set(m.id, pin);
      }
      pin.offset = offsets[i]!;
      pin.marker.setOffset([pin.offset.x, pin.offset.y]);
      pin.el.classList.toggle(PIN_ACTIVE_CLASS, m.id === this.active);
    });
    this.opts.onSync();
  };

  private async expand(clusterId: number, at: [number, number]): Promise<void> {
    const source = this.map.getSource(SOURCE) as GeoJSONSource | undefined;
    if (!source) return;
    const zoom = Math.min(MAP_MAX_ZOOM, await source.getClusterExpansionZoom(clusterId));
    if (this.opts.reducedMotion()) this.map.jumpTo({ center: at, zoom });
    else this.map.easeTo({ center: at, zoom, duration: 500 });
  }

  destroy(): void {
    this.map.off('render', this.sync);
    for (const pin of this.pins.values()) pin.marker.remove();
    for (const group of this.groups.values()) group.marker.remove();
    this.pins.clear();
    this.groups.clear();
  }
}
