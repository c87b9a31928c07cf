/**
 * The bundled basemap used when no style URL is configured: water, the land of the United
 * States, state borders and a light grid, all drawn from data shipped with the app. It has no
 * glyphs, sprites or tiles, so the map works with no network at all.
 */
import type { StyleSpecification } from 'maplibre-gl';
import type { FeatureCollection, LineString, MultiLineString } from 'geojson';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

type Atlas = Topology<{ states: GeometryCollection; nation: GeometryCollection }>;

const COLORS = {
  water: '#cfe2ee',
  land: '#f2efe6',
  landGrid: '#e2ddd0',
  stateBorder: '#a69e8d',
  coast: '#8eabbd',
  grid: '#b7cfde',
};

/** Meridians and parallels every `step` degrees over the box, as one line collection. */
export function graticule(
  step: number,
  box: { west: number; south: number; east: number; north: number },
): FeatureCollection<LineString> {
  const features: FeatureCollection<LineString>['features'] = [];
  const line = (coordinates: [number, number][]) =>
    features.push({ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates } });
  for (let lng = Math.ceil(box.west / step) * step; lng <= box.east; lng += step)
    line([
      [lng, box.south],
      [lng, box.north],
    ]);
  for (let lat = Math.ceil(box.south / step) * step; lat <= box.north; lat += step) {
    // Parallels curve on the map, so give them intermediate points rather than one long chord.
    const points: [number, number][] = [];
    for (let lng = box.west; lng <= box.east; lng += 5) points.push([lng, lat]);
    line(points);
  }
  return { type: 'FeatureCollection', features };
}

const US_BOX = { west: -180, south: 15, east: -60, north: 75 };

export async function loadOfflineStyle(): Promise<StyleSpecification> {
  // The atlas is its own lazy chunk next to the map chunk; pages without a map never load it.
  const atlas = (await import('us-atlas/states-10m.json')).default as unknown as Atlas;
  const nation = feature(atlas, atlas.objects.nation);
  const borders: MultiLineString = mesh(atlas, atlas.objects.states, (a, b) => a !== b);
  const attribution = 'US Census Bureau boundaries';
  return {
    version: 8,
    name: 'Ampere offline',
    sources: {
      nation: { type: 'geojson', data: nation, attribution },
      borders: { type: 'geojson', data: { type: 'Feature', properties: {}, geometry: borders } },
      grid: { type: 'geojson', data: graticule(1, US_BOX) },
      gridCoarse: { type: 'geojson', data: graticule(5, US_BOX) },
    },
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': COLORS.water } },
      {
        id: 'grid-coarse',
        type: 'line',
        source: 'gridCoarse',
        maxzoom: 5,
        paint: { 'line-color': COLORS.grid, 'line-width': 0.6 },
      },
      { id: 'grid', type: 'line', source: 'grid', minzoom: 5, paint: { 'line-color': COLORS.grid, 'line-width': 0.6 } },
      { id: 'land', type: 'fill', source: 'nation', paint: { 'fill-color': COLORS.land } },
      {
        id: 'grid-on-land',
        type: 'line',
        source: 'grid',
        minzoom: 5,
        paint: { 'line-color': COLORS.landGrid, 'line-width': 1 },
      },
      {
        id: 'state-borders',
        type: 'line',
        source: 'borders',
        paint: {
          'line-color': COLORS.stateBorder,
          'line-width': ['interpolate', ['linear'], ['zoom'], 3, 0.7, 9, 1.5, 14, 2.5],
          'line-dasharray': [5, 3],
        },
      },
      {
        id: 'coast',
        type: 'line',
        source: 'nation',
        paint: { 'line-color': COLORS.coast, 'line-width': ['interpolate', ['linear'], ['zoom'], 3, 0.8, 9, 2, 14, 4] },
      },
    ],
  };
}
