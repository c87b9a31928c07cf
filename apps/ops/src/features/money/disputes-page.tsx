import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { DISPUTE_DECISION_REASON_MIN, DISPUTE_WINDOW_HOURS } from '@ampere/domain/charges';
import { formatTotal } from '@ampere/domain/money';
import { ApiError, errorText } from '../../shared/api.ts';
import { formatDayTime } from '../../shared/dates.ts';
import { DataGrid } from '../../shared/grid/data-grid.tsx';
import { useCan } from '../../shared/me.ts';
import { paths } from '../../shared/paths.ts';
import { useTitle } from '../../shared/use-title.ts';
import { type DisputeItem, acceptDispute, disputesQuery, moneyKeys, rejectDispute } from './money-api.ts';
import { CHARGE_STATUS_COLOURS, zoneOf } from './money-words.ts';
import { fleetLocationsQuery } from '../fleet/fleet-api.ts';
import { ChargeDetails } from './trip-money-panel.tsx';

const column = createColumnHelper<DisputeItem>();
const PAGE = 50;

/**
 * The dispute queue (issue 30 §2): the disputed charges waiting for a decision (or those decided),
 * each opened to read the charge, its evidence and the renter's words, then accepted — which
 * refunds what was taken — or rejected with a written reason the renter reads.
 */
export function DisputesPage() {
  useTitle('Disputes');
  const [state, setState] = useState<'open' | 'decided'>('open');
  const [offset, setOffset] = useState(0);
  const [opened, setOpened] = useState<DisputeItem | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const list = useQuery(disputesQuery({ state, limit: PAGE, offset }));
  const locations = useQuery(fleetLocationsQuery).data?.locations;

  const columns = useMemo(
    () => [
      column.accessor((i) => i.charge.label, {
        id: 'charge',
        header: 'Charge',
        cell: (c) => (
          <Anchor component="button" type="button" size="sm" ta="start" onClick={() => setOpened(c.row.original)}>
            {c.getValue()}
          </Anchor>
        ),
      }),
      column.accessor((i) => i.charge.amount, {
        id: 'amount',
        header: 'Amount',
        cell: (c) => formatTotal(c.getValue()),
      }),
      column.accessor((i) => i.charge.tripReference, {
        id: 'trip',
        header: 'Trip',
        cell: (c) => (
          <Anchor component={Link} to={paths.trip(c.row.original.charge.tripReference)} size="sm">
            {c.getValue()}
          </Anchor>
        ),
      }),
      column.accessor((i) => i.renterName ?? 'Account closed', { id: 'renter', header: 'Renter' }),
      column.accessor((i) => i.dispute.openedAt, {
        id: 'opened',
        header: 'Disputed',
        cell: (c) => formatDayTime(c.getValue(), zoneOf(locations, c.row.original.locationId)),
      }),
      column.accessor((i) => i.charge.statusLabel, {
        id: 'status',
        header: 'Status',
        cell: (c) => <Badge color={CHARGE_STATUS_COLOURS[c.row.original.charge.status]}>{c.getValue()}</Badge>,
      }),
    ],
    [locations],
  );

  return (
    <Stack>
      <Title order={1}>Disputes</Title>
      <Text size="sm" maw={760}>
        Charges renters disputed within {DISPUTE_WINDOW_HOURS} hours of their posting. A charge not yet collected waits
        until it is decided. Accepting refunds what was taken; rejecting needs a reason, which the renter reads.
      </Text>
      <SegmentedControl
        w="fit-content"
        aria-label="Which disputes"
        value={state}
        onChange={(v) => {
          setState(v as 'open' | 'decided');
          setOffset(0);
        }}
        data={[
          { value: 'open', label: 'Waiting for a decision' },
          { value: 'decided', label: 'Decided' },
        ]}
      />
      {notice && (
        <Alert color="green" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      {list.isError ? (
        <Alert color="red" role="alert">
          {errorText(list.error)}
        </Alert>
      ) : list.isPending ? (
        <Loader role="status" aria-label="Loading the disputes" />
      ) : (
        <DataGrid
          caption={state === 'open' ? 'Disputes waiting for a decision' : 'Decided disputes'}
          data={list.data.items}
          columns={columns}
          getRowId={(i) => i.dispute.id}
          minWidth={820}
          emptyText={state === 'open' ? 'No dispute is waiting.' : 'No dispute has been decided yet.'}
          footer={
            list.data.total > PAGE ? (
              <Group justify="space-between" mt="xs">
                <Text size="sm">
                  {offset + 1}–{Math.min(offset + PAGE, list.data.total)} of {list.data.total}
                </Text>
                <Group gap="xs">
                  <Button size="xs" variant="default" disabled={offset === 0} onClick={() => setOffset(offset - PAGE)}>
                    Previous
                  </Button>
                  <Button
                    size="xs"
                    variant="default"
                    disabled={offset + PAGE >= list.data.total}
                    onClick={() => setOffset(offset + PAGE)}
                  >
                    Next
                  </Button>
                </Group>
              </Group>
            ) : undefined
          }
        />
      )}
      {opened && (
        <Modal opened onClose={() => setOpened(null)} title={`Dispute: ${opened.charge.label}`} size="lg">
          <DisputeDecision
            item={opened}
            zone={zoneOf(locations, opened.locationId)}
            onDecided={(text) => {
              setOpened(null);
              setNotice(text);
            }}
          />
        </Modal>
      )}
    </Stack>
  );
}

function DisputeDecision({
  item,
  zone,
  onDecided,
}: {
  item: DisputeItem;
  zone: string;
  onDecided: (text: string) => void;
}) {
  const can = useCan();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const decide = useMutation({
    mutationFn: (outcome: 'accept' | 'reject') =>
      outcome === 'accept'
        ? acceptDispute(item.dispute.id, reason.trim())
        : rejectDispute(item.dispute.id, reason.trim()),
    onSuccess: async (answer, outcome) => {
      await queryClient.invalidateQueries({ queryKey: moneyKeys.all });
      onDecided(
        outcome === 'accept'
          ? `Accepted: ${answer.refund ? `${formatTotal(answer.refund.amount)} refunded` : 'nothing more is taken'} for ${item.charge.label} on trip ${item.charge.tripReference}. The renter is told.`
          : `Rejected: the ${item.charge.label} on trip ${item.charge.tripReference} stands. The renter reads your reason.`,
      );
    },
    onError: (err) => {
      if (err instanceof ApiError && err.field === 'reason') setReasonError(err.message);
    },
  });
  const decided = item.dispute.outcome !== null;
  const mayDecide = can('disputes.decide') && !decided;

  return (
    <Stack gap="sm">
      <Text size="sm">
        Renter: {item.renterName ?? 'Account closed'} · Trip{' '}
        <Anchor component={Link} to={paths.trip(item.charge.tripReference)} size="sm">
          {item.charge.tripReference}
        </Anchor>
      </Text>
      <ChargeDetails charge={{ ...item.charge, dispute: item.dispute }} zone={zone} />
      {mayDecide ? (
        <>
          <Textarea
            label="Your reason (required to reject; the renter reads it)"
            value={reason}
            onChange={(e) => {
              setReason(e.currentTarget.value);
              setReasonError(null);
            }}
            autosize
            minRows={2}
            maxLength={1_000}
            error={reasonError}
          />
          {decide.isError && !reasonError && (
            <Alert color="red" role="alert">
              {errorText(decide.error)}
            </Alert>
          )}
          <Group justify="flex-end" gap="xs">
            <Button
              variant="outline"
              color="red.9"
              loading={decide.isPending && decide.variables === 'reject'}
              disabled={decide.isPending}
              onClick={() => {
                if (reason.trim().length < DISPUTE_DECISION_REASON_MIN) {
                  setReasonError(
                    `Write why the charge stands: at least ${DISPUTE_DECISION_REASON_MIN} characters. The renter reads it.`,
                  );
                  return;
                }
                decide.mutate('reject');
              }}
            >
              Reject
            </Button>
            <Button
              loading={decide.isPending && decide.variables === 'accept'}
              disabled={decide.isPending}
              onClick={() => decide.mutate('accept')}
            >
              Accept and refund
            </Button>
          </Group>
        </>
      ) : (
        !decided && (
          <Text size="sm" c="dimmed">
            A manager or the owner decides disputes.
          </Text>
        )
      )}
    </Stack>
  );
}
