import { Button, Center, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { type RefObject, useEffect, useMemo, useRef, useState } from 'react';
import { MAP_LIST_FILTER_DELAY_MS, MAP_ZOOM } from '@ampere/domain/constants';
import type { SearchOption, VehicleSearchItem } from '@ampere/domain/contract/catalog';
import { formatPrice, formatTotal } from '@ampere/domain/money';
import { paths } from '../../../shared/paths.ts';
import { useClientConfig } from '../../../shared/api/config.ts';
import { LazyMap } from '../../../shared/map/lazy-map.tsx';
import { type MapBounds, type MapMarker, isInside } from '../../../shared/map/types.ts';
import { VehicleCard } from './vehicle-card.tsx';
import classes from './results.module.css';
import { useWideLayout } from '../../../shared/ui/use-wide-layout.ts';

export interface ResultsProps {
  items: VehicleSearchItem[] | undefined;
  isLoading: boolean;
  location: SearchOption | null;
  linkQuery: Record<string, string | undefined>;
  onClearFilters(): void;
  onOpen(item: VehicleSearchItem): void;
}

/** Room the List/Map toggle takes at the bottom of a narrow screen (its height, its margin and a gap). */
const TOGGLE_ROOM_PX = 76;

/**
 * On a narrow screen the map ends above the floating List/Map toggle, so no pin sits under it:
 * its height is the room left between its top and the toggle, kept up to date as the window changes.
 */
function useHeightAboveToggle(ref: RefObject<HTMLElement | null>, enabled: boolean): number | null {
  const [height, setHeight] = useState<number | null>(null);
  useEffect(() => {
    if (!enabled) return;
    const measure = () => {
      const top = ref.current?.getBoundingClientRect().top ?? 0;
      setHeight(Math.max(280, Math.round(window.innerHeight - Math.max(0, top) - TOGGLE_ROOM_PX)));
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [ref, enabled]);
  return enabled ? height : null;
}

/** The list (only cars inside the visible map area) beside the map; a list/map toggle when narrow. */
export function Results({ items, isLoading, location, linkQuery, onClearFilters, onOpen }: ResultsProps) {
  const wide = useWideLayout();
  const [view, setView] = useState<'list' | 'map'>('list');
  const [active, setActive] = useState<string | null>(null);
  const [bounds, setBounds] = useState<MapBounds | null>(null);
  const [appliedBounds, setAppliedBounds] = useState<MapBounds | null>(null);
  const [showAll, setShowAll] = useState(0);
  const config = useClientConfig();

  // Spec 9: the list follows the map 300 ms after it stops moving.
  useEffect(() => {
    const t = setTimeout(() => setAppliedBounds(bounds), MAP_LIST_FILTER_DELAY_MS);
    return () => clearTimeout(t);
  }, [bounds]);
  useEffect(() => setAppliedBounds(null), [location?.id]);

  const visible = useMemo(
    () => (items ?? []).filter((i) => !appliedBounds || isInside(appliedBounds, i.location)),
    [items, appliedBounds],
  );
  const markers: MapMarker[] = useMemo(
    () =>
      (items ?? []).map((i) => ({
        id: i.vin,
        latitude: i.location.latitude,
        longitude: i.location.longitude,
        title: `${i.year} ${i.model.name}`,
        description: `${formatTotal(i.price.total)} total · ${formatPrice(i.rack_rate)}/day`,
        priceLabel: formatTotal(i.price.total),
        priceCents: i.price.total,
        place: { id: String(i.location.id), name: i.location.name, street: i.location.street },
        color: i.color,
        href: paths.vehicle(i.vin, linkQuery),
      })),
    [items, linkQuery],
  );

  const showList = wide || view === 'list';
  const showMap = !!location && (wide || view === 'map');
  const count = visible.length;
  // Cars were found, but the map has been moved where none of them are.
  const emptyArea = count === 0 && (items?.length ?? 0) > 0 && appliedBounds !== null;
  const mapRef = useRef<HTMLElement>(null);
  const narrowMapHeight = useHeightAboveToggle(mapRef, showMap && !wide);

  return (
    <div className={classes.layout} data-wide={wide || undefined}>
      <section className={classes.list} aria-labelledby="results-title" hidden={!showList}>
        <Group justify="space-between" mb="sm">
          <Title order={2} size="h4" id="results-title" aria-live="polite">
            {isLoading ? 'Searching…' : `${count} ${count === 1 ? 'vehicle' : 'vehicles'}`}
          </Title>
        </Group>
        {isLoading ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {Array.from({ length: 6 }, (_, i) => (
              <Skeleton key={i} h={260} radius="md" />
            ))}
          </SimpleGrid>
        ) : emptyArea ? (
          <Center py="xl">
            <Stack align="center" gap="xs" maw={360} ta="center">
              <Text fw={700}>There are no cars in this area.</Text>
              <Text size="sm" c="dark.3">
                Zoom out to see the cars near {location?.query}.
              </Text>
              <Button variant="outline" onClick={() => setShowAll((n) => n + 1)}>
                Zoom out to the cars
              </Button>
            </Stack>
          </Center>
        ) : count === 0 ? (
          <Center py="xl">
            <Stack align="center" gap="xs" maw={360} ta="center">
              <svg width="48" height="48" viewBox="0 0 24 24" aria-hidden="true" fill="#495057">
                <path d="M5 11l1.5-4.5A2 2 0 0 1 8.4 5h7.2a2 2 0 0 1 1.9 1.5L19 11v6h-2v2h-2v-2H9v2H7v-2H5zm2.2-1h9.6l-1-3H8.2zM7.5 14a1 1 0 1 0 0-2 1 1 0 0 0 0 2zm9 0a1 1 0 1 0 0-2 1 1 0 0 0 0 2z" />
              </svg>
              <Text fw={700}>There are no cars that match your search.</Text>
              <Text size="sm" c="dark.3">
                Try modifying your search to view vehicles in your area.
              </Text>
              <Button variant="outline" onClick={onClearFilters}>
                Clear Filters
              </Button>
            </Stack>
          </Center>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            {visible.map((item, i) => (
              <VehicleCard
                key={item.vin}
                item={item}
                href={paths.vehicle(item.vin, linkQuery)}
                onHover={setActive}
                onOpen={() => onOpen(item)}
                priority={i < 2}
              />
            ))}
          </SimpleGrid>
        )}
      </section>
      {showMap && location && (
        <section className={classes.map} aria-label="Map of vehicles" ref={mapRef}>
          <LazyMap
            center={{ latitude: location.latitude, longitude: location.longitude }}
            zoom={MAP_ZOOM}
            markers={markers}
            activeMarkerId={active}
            onBoundsChange={setBounds}
            showAllRequest={showAll}
            eager
            styleUrl={config.mapStyleUrl}
            ariaLabel={`Map of vehicles near ${location.query}`}
            height={wide ? 'calc(100vh - 180px)' : (narrowMapHeight ?? 'calc(100vh - 300px)')}
          />
        </section>
      )}
      {!wide && (
        <div className={classes.toggle}>
          <Button.Group aria-label="Show vehicles as a list or on a map">
            {(['list', 'map'] as const).map((v) => (
              <Button
                key={v}
                variant={view === v ? 'filled' : 'default'}
                aria-pressed={view === v}
                onClick={() => setView(v)}
              >
                {v === 'list' ? 'List' : 'Map'}
              </Button>
            ))}
          </Button.Group>
        </div>
      )}
    </div>
  );
}
