import { Alert, Anchor, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { DEFAULT_MIN_RESERVATION_BUFFER_HOURS } from '@ampere/domain/constants';
import { errorText } from '../../shared/api.ts';
import { DataGrid } from '../../shared/grid/data-grid.tsx';
import { paths } from '../../shared/paths.ts';
import { type StaffLocation, staffLocationsQuery } from '../../shared/staff-locations.ts';
import { useTitle } from '../../shared/use-title.ts';

const column = createColumnHelper<StaffLocation>();

/** The locations the staff member works at; each opens its edit form (decision 088). */
export function LocationsPage() {
  useTitle('Locations');
  const locations = useQuery(staffLocationsQuery);
  const [filter, setFilter] = useState('');
  const columns = useMemo(
    () => [
      column.accessor('name', {
        header: 'Name',
        cell: (c) => (
          <Anchor component={Link} to={paths.location(c.row.original.id)} fw={600}>
            {c.getValue()}
          </Anchor>
        ),
      }),
      column.accessor((l) => `${l.street}, ${l.city}, ${l.state} ${l.zipCode}`, { id: 'address', header: 'Address' }),
      column.accessor('timezone', { header: 'Time zone' }),
      column.accessor((l) => l.minReservationBufferHours ?? -1, {
        id: 'buffer',
        header: 'Booking notice',
        cell: (c) => {
          const hours = c.row.original.minReservationBufferHours;
          return hours === null ? (
            <Text c="dimmed">Default ({DEFAULT_MIN_RESERVATION_BUFFER_HOURS} h)</Text>
          ) : (
            `${hours} h`
          );
        },
      }),
    ],
    [],
  );
  return (
    <Stack>
      <Title order={1}>Locations</Title>
      {locations.isError ? (
        <Alert color="red" role="alert">
          {errorText(locations.error)}
        </Alert>
      ) : (
        <>
          <TextInput
            label="Filter"
            placeholder="Name, city, street, zone…"
            value={filter}
            onChange={(e) => setFilter(e.currentTarget.value)}
            maw={360}
          />
          <DataGrid
            caption="Your locations"
            data={locations.data ?? []}
            columns={columns}
            getRowId={(l) => l.id}
            filter={filter}
            pageSize={25}
            minWidth={720}
            emptyText={locations.isPending ? 'Loading the locations…' : 'No location matches.'}
            initialSorting={[{ id: 'name', desc: false }]}
          />
        </>
      )}
    </Stack>
  );
}
