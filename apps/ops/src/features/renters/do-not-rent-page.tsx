import { Alert, Anchor, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { useMemo } from 'react';
import { Link } from 'react-router';
import type { DoNotRentListing } from '@ampere/domain/contract/ops-renters';
import { formatPhone } from '@ampere/domain/phone';
import { errorText } from '../../shared/api.ts';
import { formatInstant } from '../../shared/dates.ts';
import { DataGrid } from '../../shared/grid/data-grid.tsx';
import { paths } from '../../shared/paths.ts';
import { useTitle } from '../../shared/use-title.ts';
import { doNotRentQuery } from './renters-api.ts';

const column = createColumnHelper<DoNotRentListing>();

/**
 * Do not rent (issue 30 §4, decision 095): the renters who cannot book until their listing expires
 * or a manager lifts it, with the reason and who listed them. A renter is listed from their page.
 */
export function DoNotRentPage() {
  useTitle('Do not rent');
  const list = useQuery(doNotRentQuery);
  const columns = useMemo(
    () => [
      column.accessor((r) => r.renter.name, {
        id: 'renter',
        header: 'Renter',
        cell: (c) => (
          <>
            <Anchor component={Link} to={paths.renter(c.row.original.renter.id)} fw={600}>
              {c.getValue()}
            </Anchor>
            <Text span display="block" size="xs" c="dimmed">
              {formatPhone(c.row.original.renter.phone)}
            </Text>
          </>
        ),
      }),
      column.accessor('reason', { header: 'Reason' }),
      column.accessor('until', { header: 'Until', cell: (c) => formatInstant(c.getValue()) }),
      column.accessor('listedAt', {
        header: 'Listed',
        cell: (c) => (
          <>
            {formatInstant(c.getValue())}
            <Text span display="block" size="xs" c="dimmed">
              by {c.row.original.listedBy}
            </Text>
          </>
        ),
      }),
    ],
    [],
  );
  return (
    <Stack>
      <Title order={1}>Do not rent</Title>
      <Text c="dimmed" size="sm">
        Renters on this list cannot book until the date shown. They are told, courteously, to contact support — never
        why. Add or lift a renter from their page.
      </Text>
      {list.isPending ? (
        <Loader role="status" aria-label="Loading the do-not-rent list" />
      ) : list.isError ? (
        <Alert color="red" role="alert">
          {errorText(list.error)}
        </Alert>
      ) : (
        <DataGrid
          caption="Renters who cannot book"
          data={list.data.items}
          columns={columns}
          getRowId={(r) => r.id}
          pageSize={25}
          minWidth={760}
          emptyText="Nobody is on the list."
        />
      )}
    </Stack>
  );
}
