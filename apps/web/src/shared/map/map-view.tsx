import type { MapViewProps } from './types.ts';

/** Placeholder until the MapLibre view lands: lists the markers. */
export default function MapView({ markers, ariaLabel, height }: MapViewProps) {
  return (
    <div role="region" aria-label={ariaLabel} style={{ height: height ?? 400, overflow: 'auto', background: '#eef1f4' }}>
      <ul>
        {markers.map((m) => (
          <li key={m.id}>{m.title}</li>
        ))}
      </ul>
    </div>
  );
}
