import { Alert, Anchor, Badge, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { type FormEvent, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { LookupResult } from '@ampere/domain/contract/ops-day';
import { formatPhone } from '@ampere/domain/phone';
import { ApiError, api, errorText } from '../../shared/api.ts';
import { formatDayTime } from '../../shared/dates.ts';
import { DataGrid } from '../../shared/grid/data-grid.tsx';
import { paths } from '../../shared/paths.ts';
import { TRIP_STATUS_COLOURS, TRIP_STATUS_WORDS, carWords } from '../../shared/trip-words.ts';
import { useTitle } from '../../shared/use-title.ts';

type Item = LookupResult['items'][number];
const column = createColumnHelper<Item>();

const MATCH_WORDS: Record<string, string> = {
  trip: 'Trip',
  phone: 'Phone',
  email: 'Email',
  vin: 'VIN',
  name: 'Name',
};

/**
 * Lookup (issue 29 §4, decision 086): one field for whatever the renter says — a trip id or
 * reference, a phone number in any format, a name, an email, a VIN or its end — and the trips
 * found, each opening its timeline. The search is in the address, so Back returns to it.
 */
export function LookupPage() {
  useTitle('Lookup');
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const [draft, setDraft] = useState(q);
  const [tooShort, setTooShort] = useState(false);
  const found = useQuery({
    queryKey: ['lookup', q],
    queryFn: () => api<LookupResult>(`/lookup?q=${encodeURIComponent(q)}`),
    enabled: q.trim().length >= 2,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

  const search = (event: FormEvent) => {
    event.preventDefault();
    const text = draft.trim();
    setTooShort(text.length < 2);
    if (text.length >= 2) setParams({ q: text });
  };

  const columns = useMemo(
    () => [
      column.accessor('reference', {
        header: 'Trip',
        cell: (c) => (
          <Anchor component={Link} to={paths.trip(c.row.original.reference)} fw={600} style={{ whiteSpace: 'nowrap' }}>
            {c.getValue()}
          </Anchor>
        ),
      }),
      column.accessor((r) => r.renter?.name ?? '', {
        id: 'renter',
        header: 'Renter',
        cell: (c) => {
          const renter = c.row.original.renter;
          if (!renter) return <Text c="dimmed">Account closed</Text>;
          return (
            <>
              <Anchor component={Link} to={paths.renter(renter.id)}>
                {renter.name}
              </Anchor>
              <Text span display="block" size="xs" c="dimmed">
                {formatPhone(renter.phone)}
                {renter.email ? ` · ${renter.email}` : ''}
              </Text>
            </>
          );
        },
      }),
      column.accessor((r) => carWords(r.car), {
        id: 'car',
        header: 'Car',
        cell: (c) => (
          <>
            {c.getValue()}
            <Text span display="block" size="xs" c="dimmed">
              VIN {c.row.original.car.vin}
            </Text>
          </>
        ),
      }),
      column.accessor('pickupAt', {
        header: 'Pickup',
        cell: (c) => formatDayTime(c.getValue(), c.row.original.location.timezone),
      }),
      column.accessor((r) => r.location.name, { id: 'location', header: 'Location' }),
      column.accessor('status', {
        header: 'Status',
        cell: (c) => (
          <Badge color={TRIP_STATUS_COLOURS[c.getValue()]} style={{ minWidth: 'max-content' }}>
            {TRIP_STATUS_WORDS[c.getValue()]}
          </Badge>
        ),
      }),
      column.accessor((r) => MATCH_WORDS[r.matchedBy] ?? r.matchedBy, { id: 'matched', header: 'Found by' }),
    ],
    [],
  );

  const inputError = tooShort
    ? 'Type at least 2 characters.'
    : found.error instanceof ApiError && found.error.status === 400
      ? found.error.message
      : null;

  return (
    <Stack>
      <Title order={1}>Lookup</Title>
      <form onSubmit={search} role="search" aria-label="Trip lookup">
        <Group align="flex-end" gap="sm">
          <TextInput
            label="Find a trip"
            description="Trip reference or id, the renter’s phone (any format), name or email, or a VIN or its last digits"
            value={draft}
            onChange={(e) => setDraft(e.currentTarget.value)}
            error={inputError}
            autoComplete="off"
            style={{ flex: '1 1 280px' }}
            maxLength={100}
          />
          <Button type="submit" loading={found.isFetching}>
            Search
          </Button>
        </Group>
      </form>
      {found.isError && !inputError ? (
        <Alert color="red" role="alert">
          {errorText(found.error)}
        </Alert>
      ) : q.trim().length >= 2 && found.data ? (
        <>
          <Text size="sm" role="status">
            {found.data.items.length === 0
              ? `No trip found for “${found.data.q}”.`
              : `${found.data.items.length} ${found.data.items.length === 1 ? 'trip' : 'trips'} found for “${found.data.q}”.`}
          </Text>
          {found.data.items.length > 0 && (
            <DataGrid
              caption={`Trips found for “${found.data.q}”`}
              data={found.data.items}
              columns={columns}
              getRowId={(r) => r.tripId}
              pageSize={25}
              minWidth={900}
              emptyText="No trip found."
            />
          )}
        </>
      ) : null}
    </Stack>
  );
}
