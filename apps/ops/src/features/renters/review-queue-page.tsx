import { Alert, Anchor, Badge, Button, Loader, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import type { ReviewQueueItem } from '@ampere/domain/contract/ops-renters';
import { formatPhone } from '@ampere/domain/phone';
import { errorText } from '../../shared/api.ts';
import { formatDayTime, formatInstant } from '../../shared/dates.ts';
import { DataGrid } from '../../shared/grid/data-grid.tsx';
import { paths } from '../../shared/paths.ts';
import { useTitle } from '../../shared/use-title.ts';
import { type CheckToReview, ReviewDialog } from './review-dialog.tsx';
import { reviewQueueQuery } from './renters-api.ts';
import { CHECK_WORDS, WHY_COLOURS, WHY_WORDS, statusWords } from './words.ts';

const column = createColumnHelper<ReviewQueueItem>();

/**
 * Review (issue 30 §4, decision 094): the license checks that did not pass or were flagged, and the
 * insurance connections in a failed state, of renters with an open trip at your locations, oldest
 * first. Each opens a decision: approve, override with a reason, or uphold.
 */
export function ReviewQueuePage() {
  useTitle('Review');
  const queue = useQuery(reviewQueueQuery);
  const [reviewing, setReviewing] = useState<CheckToReview | null>(null);
  const [done, setDone] = useState<string | null>(null);

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
      column.accessor((r) => CHECK_WORDS[r.subject], { id: 'check', header: 'Check' }),
      column.accessor('why', {
        header: 'Why',
        cell: (c) => (
          <Badge color={WHY_COLOURS[c.getValue()]} style={{ minWidth: 'max-content' }}>
            {WHY_WORDS[c.getValue()]}
          </Badge>
        ),
      }),
      column.accessor('providerStatus', {
        header: 'Provider said',
        cell: (c) => (
          <>
            {statusWords(c.getValue())}
            {(c.row.original.providerReason || c.row.original.carrier) && (
              <Text span display="block" size="xs" c="dimmed">
                {[c.row.original.carrier, c.row.original.providerReason].filter(Boolean).join(' · ')}
              </Text>
            )}
          </>
        ),
      }),
      column.accessor('checkedAt', { header: 'When', cell: (c) => formatInstant(c.getValue()) }),
      column.accessor((r) => r.nextTrip?.pickupAt ?? '', {
        id: 'nextTrip',
        header: 'Next pickup',
        cell: (c) => {
          const trip = c.row.original.nextTrip;
          if (!trip) return <Text c="dimmed">None</Text>;
          return (
            <>
              <Anchor component={Link} to={paths.trip(trip.reference)}>
                {trip.reference}
              </Anchor>
              <Text span display="block" size="xs" c="dimmed">
                {formatDayTime(trip.pickupAt, trip.timezone)} · {trip.locationName}
              </Text>
            </>
          );
        },
      }),
      column.display({
        id: 'decide',
        header: 'Decision',
        cell: (c) => {
          const r = c.row.original;
          return (
            <Button
              size="xs"
              onClick={() =>
                setReviewing({
                  subject: r.subject,
                  checkId: r.checkId,
                  why: r.why,
                  renterName: r.renter.name,
                  providerStatus: r.providerStatus,
                })
              }
            >
              {r.why === 'flagged' ? 'Approve' : 'Override'}
              <VisuallyHidden>
                {' '}
                or uphold the {CHECK_WORDS[r.subject].toLowerCase()} of {r.renter.name}
              </VisuallyHidden>
            </Button>
          );
        },
      }),
    ],
    [],
  );

  return (
    <Stack>
      <Title order={1}>Review</Title>
      <Text c="dimmed" size="sm">
        License checks that did not pass or were flagged, and insurance connections that failed, of renters with a trip
        coming up at your locations. Approve a flagged check; override a failed one with a reason, or uphold it.
      </Text>
      {done && (
        <Alert color="green" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setDone(null)}>
          {done}
        </Alert>
      )}
      {queue.isPending ? (
        <Loader role="status" aria-label="Loading the review queue" />
      ) : queue.isError ? (
        <Alert color="red" role="alert">
          {errorText(queue.error)}
        </Alert>
      ) : (
        <DataGrid
          caption="Checks waiting for a decision"
          data={queue.data.items}
          columns={columns}
          getRowId={(r) => `${r.subject}:${r.checkId}`}
          pageSize={25}
          minWidth={960}
          emptyText="Nothing to review: every renter with a trip coming up passed their checks."
        />
      )}
      <ReviewDialog check={reviewing} onClose={() => setReviewing(null)} onDone={setDone} />
    </Stack>
  );
}
