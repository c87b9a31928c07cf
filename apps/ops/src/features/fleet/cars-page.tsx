import {
  Alert,
  Anchor,
  Button,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type SortingState, createColumnHelper } from '@tanstack/react-table';
import { type FormEvent, useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { CAR_SORTS, type CarSummary } from '@ampere/domain/contract/ops-fleet';
import { CAR_STATUSES, type CarStatus } from '@ampere/domain/fleet';
import { formatPrice } from '@ampere/domain/money';
import { errorText } from '../../shared/api.ts';
import { DataGrid } from '../../shared/grid/data-grid.tsx';
import { useCan } from '../../shared/me.ts';
import { paths } from '../../shared/paths.ts';
import { useTitle } from '../../shared/use-title.ts';
import { CarStatusBadge, STATUS_LABELS, batteryText } from './car-status.tsx';
import { type CarsFilter, EXPORT_URL, carsQuery, catalogQuery, fleetLocationsQuery } from './fleet-api.ts';

const PAGE_SIZE = 25;
type Sort = (typeof CAR_SORTS)[number];
const column = createColumnHelper<CarSummary>();

/** The battery filter's choices: the questions a manager asks before the day's pickups. */
const BATTERY_CHOICES = [
  { value: '', label: 'Any charge' },
  { value: 'below:20', label: 'Below 20%' },
  { value: 'below:50', label: 'Below 50%' },
  { value: 'above:80', label: 'Above 80%' },
];

interface Filters {
  locationId: string;
  model: string;
  status: string;
  battery: string;
  vin: string;
}
const FILTER_KEYS = ['locationId', 'model', 'status', 'battery', 'vin'] as const;

/**
 * The fleet (issue 29 §3): every car of the staff member's locations, filtered by location, model,
 * status and battery, sorted and paged by the server. The filters live in the address, so a
 * filtered list can be shared and comes back with the browser's Back.
 */
export function CarsPage() {
  useTitle('Fleet');
  const can = useCan();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const applied: Filters = Object.fromEntries(FILTER_KEYS.map((k) => [k, search.get(k) ?? ''])) as unknown as Filters;
  const [draft, setDraft] = useState<Filters>(applied);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const activeFilters = FILTER_KEYS.filter((k) => applied[k] !== '').length;
  const sort = (CAR_SORTS as readonly string[]).includes(search.get('sort') ?? '')
    ? (search.get('sort') as Sort)
    : 'vin';
  const order = search.get('order') === 'desc' ? 'desc' : 'asc';
  const page = Math.max(1, Number(search.get('page') ?? '1') || 1);
  const locations = useQuery(fleetLocationsQuery);
  const catalog = useQuery(catalogQuery);

  const [batteryWay, batteryValue] = applied.battery.split(':');
  const filter: CarsFilter = {
    locationId: applied.locationId ? Number(applied.locationId) : undefined,
    model: applied.model || undefined,
    status: (applied.status || undefined) as CarStatus | undefined,
    vin: applied.vin.trim() || undefined,
    batteryBelow: batteryWay === 'below' ? Number(batteryValue) : undefined,
    batteryAbove: batteryWay === 'above' ? Number(batteryValue) : undefined,
    sort,
    order,
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  };
  const cars = useQuery({ ...carsQuery(filter), placeholderData: keepPreviousData });
  const total = cars.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  const update = (changes: Record<string, string>) => {
    const next = new URLSearchParams(search);
    for (const [key, value] of Object.entries(changes))
      if (value) next.set(key, value);
      else next.delete(key);
    setSearch(next);
  };
  const apply = (event: FormEvent) => {
    event.preventDefault();
    update({ ...draft, page: '' });
  };
  const sorting: SortingState = [{ id: sort, desc: order === 'desc' }];

  const columns = useMemo(
    () => [
      column.accessor('vin', {
        id: 'vin',
        header: 'VIN',
        cell: (c) => (
          <Anchor component={Link} to={paths.fleetCar(c.row.original.id)} ff="monospace" fz="sm">
            {c.getValue()}
          </Anchor>
        ),
      }),
      column.accessor((car) => `${car.year} ${car.model}`, { id: 'model', header: 'Model' }),
      column.accessor('colour', {
        id: 'colour',
        header: 'Colour',
        enableSorting: false,
        cell: (c) => c.getValue().charAt(0) + c.getValue().slice(1).toLowerCase(),
      }),
      column.accessor('locationName', { id: 'location', header: 'Location' }),
      column.accessor('status', {
        id: 'status',
        header: 'Status',
        cell: (c) => <CarStatusBadge status={c.getValue()} />,
      }),
      column.accessor('batteryPercent', { id: 'battery', header: 'Battery', cell: (c) => batteryText(c.getValue()) }),
      column.accessor('dailyRateCents', { id: 'rate', header: 'Daily rate', cell: (c) => formatPrice(c.getValue()) }),
      column.accessor('year', { id: 'year', header: 'Year' }),
    ],
    [],
  );

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Title order={1}>Fleet</Title>
        <Group gap="xs">
          {can('cars.create') && (
            <Button component={Link} to={paths.fleetNew}>
              Add car
            </Button>
          )}
          {can('fleet.import') && (
            <Button component={Link} to={paths.fleetImport} variant="default">
              Import CSV
            </Button>
          )}
          {can('fleet.export') && (
            <Button component="a" href={EXPORT_URL} download="fleet.csv" variant="default">
              Export CSV
            </Button>
          )}
        </Group>
      </Group>
      {/* On a phone the filters wait behind a button, so the first screen shows cars. */}
      <Button
        variant="default"
        hiddenFrom="sm"
        onClick={() => setFiltersOpen((o) => !o)}
        aria-expanded={filtersOpen}
        aria-controls="fleet-filters-panel"
      >
        {filtersOpen ? 'Hide filters' : `Filters${activeFilters > 0 ? ` (${activeFilters} on)` : ''}`}
      </Button>
      <Paper
        withBorder
        p="md"
        component="section"
        aria-labelledby="fleet-filters"
        id="fleet-filters-panel"
        visibleFrom={filtersOpen ? undefined : 'sm'}
      >
        <form onSubmit={apply}>
          <Stack gap="sm">
            <Title order={2} size="h4" id="fleet-filters">
              Filters
            </Title>
            <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }}>
              <NativeSelect
                label="Location"
                value={draft.locationId}
                onChange={(e) => setDraft((d) => ({ ...d, locationId: e.currentTarget.value }))}
                data={[
                  { value: '', label: 'All my locations' },
                  ...(locations.data?.locations ?? []).map((l) => ({ value: l.id, label: l.name })),
                ]}
              />
              <NativeSelect
                label="Model"
                value={draft.model}
                onChange={(e) => setDraft((d) => ({ ...d, model: e.currentTarget.value }))}
                data={[
                  { value: '', label: 'Any model' },
                  ...(catalog.data?.models ?? []).map((m) => ({ value: m.name, label: m.name })),
                ]}
              />
              <NativeSelect
                label="Status"
                value={draft.status}
                onChange={(e) => setDraft((d) => ({ ...d, status: e.currentTarget.value }))}
                data={[
                  { value: '', label: 'Any status' },
                  ...CAR_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] })),
                ]}
              />
              <NativeSelect
                label="Battery"
                value={draft.battery}
                onChange={(e) => setDraft((d) => ({ ...d, battery: e.currentTarget.value }))}
                data={BATTERY_CHOICES}
              />
              <TextInput
                label="VIN contains"
                value={draft.vin}
                maxLength={17}
                onChange={(e) => setDraft((d) => ({ ...d, vin: e.currentTarget.value }))}
              />
            </SimpleGrid>
            <Group gap="xs">
              <Button type="submit">Apply filters</Button>
              <Button
                variant="default"
                onClick={() => {
                  const none = { locationId: '', model: '', status: '', battery: '', vin: '' };
                  setDraft(none);
                  update({ ...none, page: '' });
                }}
              >
                Clear
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      {cars.isError ? (
        <Alert color="red" role="alert">
          {errorText(cars.error)}
        </Alert>
      ) : (
        <DataGrid
          caption="Cars"
          data={cars.data?.cars ?? []}
          columns={columns}
          getRowId={(car) => String(car.id)}
          minWidth={960}
          sorting={sorting}
          onSortingChange={(next) => {
            const first = next[0];
            update({ sort: first?.id ?? '', order: first?.desc ? 'desc' : '', page: '' });
          }}
          onRowClick={(car) => void navigate(paths.fleetCar(car.id))}
          emptyText={cars.isPending ? 'Loading the cars…' : 'No car matches these filters.'}
          footer={
            <Group justify="space-between" mt="sm">
              <Text size="sm" aria-live="polite">
                {cars.data ? `${total} car${total === 1 ? '' : 's'} · page ${page} of ${pages}` : 'Loading the cars…'}
              </Text>
              <Group gap="xs">
                <Button
                  variant="default"
                  size="xs"
                  disabled={page <= 1}
                  onClick={() => update({ page: String(page - 1) })}
                >
                  Previous page
                </Button>
                <Button
                  variant="default"
                  size="xs"
                  disabled={page >= pages}
                  onClick={() => update({ page: String(page + 1) })}
                >
                  Next page
                </Button>
              </Group>
            </Group>
          }
        />
      )}
    </Stack>
  );
}
