import { Alert, Anchor, Button, Group, Loader, Modal, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import type { z } from 'zod';
import type { CarSummary, Ride } from '@ampere/domain/contract/ops-fleet';
import { formatInstantInZone, zoneAbbreviation } from '@ampere/domain/format';
import { formatPrice } from '@ampere/domain/money';
import { errorText } from '../../shared/api.ts';
import { DataGrid } from '../../shared/grid/data-grid.tsx';
import { useCan } from '../../shared/me.ts';
import { paths } from '../../shared/paths.ts';
import { useTitle } from '../../shared/use-title.ts';
import { CarForm, type CarDraft, carValues } from './car-form.tsx';
import { CarHolds } from './car-holds.tsx';
import { CarPhotos } from './car-photos.tsx';
import { CarStatusBadge, batteryText } from './car-status.tsx';
import { editCar, fleetKeys, carQuery, retireCar } from './fleet-api.ts';

type RideRow = z.infer<typeof Ride>;
const rideColumn = createColumnHelper<RideRow>();
const miles = (n: number | null) => (n === null ? '—' : `${n.toLocaleString('en-US')} mi`);
const percent = (n: number | null) => (n === null ? '—' : `${Math.round(n)}%`);
const colourWord = (c: string) => c.charAt(0) + c.slice(1).toLowerCase();

/** Where a car page is reached from: a notice to show once (the car just added). */
interface CarPageState {
  notice?: string;
}

/**
 * A car (issue 29 §3): its details, status and battery; editing and retiring (managers); its
 * timeline of bookings and holds, where holds are put, changed, ended and cancelled; its rides; and
 * its photos per view. Every time is on the location's clock, with the zone named.
 */
export function CarPage() {
  const carId = Number(useParams().carId);
  const can = useCan();
  const location = useLocation();
  const queryClient = useQueryClient();
  const car = useQuery({ ...carQuery(carId), enabled: Number.isSafeInteger(carId) && carId > 0 });
  const [notice, setNotice] = useState<string | null>((location.state as CarPageState | null)?.notice ?? null);
  const [editing, setEditing] = useState(false);
  const [retiring, setRetiring] = useState(false);
  const data = car.data;
  useTitle(data ? `${data.car.model} ${data.car.vin}` : 'Car');
  const refresh = () => queryClient.invalidateQueries({ queryKey: fleetKeys.all });

  const edit = useMutation({
    mutationFn: (draft: CarDraft) => editCar(carId, carValues(draft)),
    onSuccess: async () => {
      await refresh();
      setEditing(false);
      setNotice('The car’s details are saved.');
    },
  });

  const rideColumns = useMemo(() => {
    const zone = data?.car.timezone ?? 'UTC';
    return [
      rideColumn.accessor('tripReference', { header: 'Trip' }),
      rideColumn.accessor('pickupAt', { header: 'Picked up', cell: (c) => formatInstantInZone(c.getValue(), zone) }),
      rideColumn.accessor('returnAt', {
        header: 'Returned',
        cell: (c) => {
          const at = c.getValue();
          return at ? formatInstantInZone(at, zone) : 'On rent';
        },
      }),
      rideColumn.accessor('mileageOut', { header: 'Odometer out', cell: (c) => miles(c.getValue()) }),
      rideColumn.accessor('mileageIn', { header: 'Odometer in', cell: (c) => miles(c.getValue()) }),
      rideColumn.accessor('batteryOutPercent', { header: 'Battery out', cell: (c) => percent(c.getValue()) }),
      rideColumn.accessor('batteryInPercent', { header: 'Battery in', cell: (c) => percent(c.getValue()) }),
    ];
  }, [data?.car.timezone]);

  if (!Number.isSafeInteger(carId) || carId <= 0 || car.isError)
    return (
      <Stack>
        <Anchor component={Link} to={paths.fleet} size="sm">
          ← Fleet
        </Anchor>
        <Title order={1}>Car</Title>
        <Alert color="red" role="alert">
          {car.isError ? errorText(car.error) : 'We could not find that car.'}
        </Alert>
      </Stack>
    );
  if (!data)
    return (
      <Group>
        <Loader size="sm" role="status" aria-label="Loading the car" />
      </Group>
    );

  const c = data.car;
  const zoneNote = `Times are in ${c.locationName}’s time zone, ${c.timezone} (${zoneAbbreviation(new Date(), c.timezone)}).`;
  const retired = c.status === 'retired';

  return (
    <Stack>
      <Anchor component={Link} to={paths.fleet} size="sm">
        ← Fleet
      </Anchor>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>
            {c.year} {c.model}
          </Title>
          <Text ff="monospace" c="dimmed">
            {c.vin}
          </Text>
        </div>
        <Group gap="xs">
          {can('cars.edit') && !retired && !editing && (
            <Button variant="default" onClick={() => setEditing(true)}>
              Edit details
            </Button>
          )}
          {can('cars.retire') && !retired && (
            <Button variant="outline" color="red.9" onClick={() => setRetiring(true)}>
              Retire car
            </Button>
          )}
        </Group>
      </Group>
      {notice && (
        <Alert color="green" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <Paper withBorder p="md" component="section" aria-labelledby="car-details">
        <Title order={2} size="h3" id="car-details" mb="sm">
          Details
        </Title>
        {editing ? (
          <CarForm
            initial={{
              vin: c.vin,
              year: String(c.year),
              model: c.model,
              colour: c.colour,
              locationId: c.locationId,
              dailyRateCents: String(c.dailyRateCents),
              odometer: String(c.odometer),
              plate: c.licensePlate ?? '',
              selfServe: c.selfServe,
            }}
            withVin={false}
            submitLabel="Save the details"
            pending={edit.isPending}
            error={edit.error}
            onSubmit={(draft) => edit.mutate(draft)}
            extraButtons={
              <Button
                variant="default"
                onClick={() => {
                  edit.reset();
                  setEditing(false);
                }}
              >
                Cancel
              </Button>
            }
          />
        ) : (
          <Details car={c} />
        )}
      </Paper>
      <CarHolds car={c} timeline={data.timeline} zoneNote={zoneNote} onChanged={(text) => setNotice(text)} />
      <Paper withBorder p="md" component="section" aria-labelledby="car-rides">
        <Title order={2} size="h3" id="car-rides">
          Rides
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          Odometer and battery as the car reported them at pickup and return. {zoneNote}
        </Text>
        <DataGrid
          caption="Rides"
          data={data.rides}
          columns={rideColumns}
          getRowId={(r) => `${r.tripReference}-${r.pickupAt}`}
          pageSize={10}
          minWidth={860}
          emptyText="No ride yet."
        />
      </Paper>
      <CarPhotos car={c} drawings={data.photos} />
      {retiring && <RetireDialog car={c} onClose={() => setRetiring(false)} onRetired={(text) => setNotice(text)} />}
    </Stack>
  );
}

function Details({ car }: { car: CarSummary }) {
  const items: [string, React.ReactNode][] = [
    ['Status', <CarStatusBadge key="s" status={car.status} />],
    ['Battery', batteryText(car.batteryPercent)],
    ['Location', car.locationName],
    ['Time zone', car.timezone],
    ['Colour', colourWord(car.colour)],
    ['Daily rate', `${formatPrice(car.dailyRateCents)} a day`],
    ['Odometer', miles(car.odometer)],
    ['License plate', car.licensePlate ?? 'None'],
    ['Self-serve booking', car.selfServe ? 'Allowed' : 'Staff only'],
  ];
  if (car.retiredAt) items.push(['Retired', formatInstantInZone(car.retiredAt, car.timezone)]);
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} component="dl" spacing="sm" m={0}>
      {items.map(([term, value]) => (
        <div key={term}>
          <Text component="dt" size="xs" c="dimmed">
            {term}
          </Text>
          <Text component="dd" m={0} fw={500}>
            {value}
          </Text>
        </div>
      ))}
    </SimpleGrid>
  );
}

/** Retiring says what it means before it is done; a refusal (trips not over) is the server's words. */
function RetireDialog({
  car,
  onClose,
  onRetired,
}: {
  car: CarSummary;
  onClose: () => void;
  onRetired: (text: string) => void;
}) {
  const queryClient = useQueryClient();
  const retire = useMutation({
    mutationFn: () => retireCar(car.id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: fleetKeys.all });
      onRetired(`${car.vin} is retired: renters no longer see it.`);
      onClose();
    },
  });
  return (
    <Modal opened onClose={onClose} title={`Retire ${car.year} ${car.model} ${car.vin}?`}>
      <Stack>
        <Text size="sm">
          A retired car leaves search and can never be booked again. Its bookings, rides and photos stay on record, and
          its VIN cannot be imported again. A hold under way ends now and holds ahead are cancelled. A car with trips
          not yet over cannot be retired: move or cancel them first.
        </Text>
        {retire.isError && (
          <Alert color="red" role="alert">
            {errorText(retire.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Keep the car
          </Button>
          <Button color="red.9" loading={retire.isPending} onClick={() => retire.mutate()}>
            Retire it
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
