/** The map's contract. The MapLibre implementation lives in map-view.tsx, its own lazy chunk. */

export interface MapPoint {
  latitude: number;
  longitude: number;
}

/** Spec 3 'Map marker': latitude, longitude, title, description, color, vin; plus a link and a price label. */
export interface MapMarker extends MapPoint {
  id: string;
  title: string;
  description: string;
  color?: string;
  href?: string;
  priceLabel?: string;
  /** The all-in total in cents, so a lot's pin can say 'from' its cheapest car. */
  priceCents?: number;
  /** The lot the car stands at: cars at one lot share one pin, labelled with its name and street at closer zooms. */
  place?: MapPlace;
}

export interface MapPlace {
  id: string;
  name: string;
  street?: string;
}

export interface MapBounds {
  north: number;
  south: number;
  east: number;
  west: number;
}

export interface MapViewProps {
  center: MapPoint;
  zoom?: number;
  markers: MapMarker[];
  /** The marker whose popup is open (e.g. the card under the pointer). */
  activeMarkerId?: string | null;
  onBoundsChange?: (bounds: MapBounds) => void;
  /** A MapLibre style URL; null or undefined uses the bundled offline basemap. */
  styleUrl?: string | null;
  ariaLabel: string;
  height?: number | string;
  /** Each new value moves the map out until every marker is in view (e.g. 'Zoom out' on an empty area). */
  showAllRequest?: number;
}

export function isInside(bounds: MapBounds, p: MapPoint): boolean {
  const inLat = p.latitude <= bounds.north && p.latitude >= bounds.south;
  const inLng =
    bounds.west <= bounds.east
      ? p.longitude >= bounds.west && p.longitude <= bounds.east
      : p.longitude >= bounds.west || p.longitude <= bounds.east;
  return inLat && inLng;
}
