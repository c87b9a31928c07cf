import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  NativeSelect,
  Stack,
  Text,
  Textarea,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { DEPOSIT_STATUSES, DEPOSIT_STATUS_LABELS, type DepositStatus } from '@ampere/domain/charges';
import type { DepositHold } from '@ampere/domain/contract/ops-money';
import { formatTotal } from '@ampere/domain/money';
import { errorText } from '../../shared/api.ts';
import { formatDayTime } from '../../shared/dates.ts';
import { DataGrid } from '../../shared/grid/data-grid.tsx';
import { useCan } from '../../shared/me.ts';
import { paths } from '../../shared/paths.ts';
import { useTitle } from '../../shared/use-title.ts';
import { fleetLocationsQuery } from '../fleet/fleet-api.ts';
import { ChargeForm } from './charge-form.tsx';
import { captureDeposit, depositsQuery, moneyKeys, releaseDeposit } from './money-api.ts';
import { DEPOSIT_STATUS_COLOURS, cardWords, zoneOf } from './money-words.ts';

const column = createColumnHelper<DepositHold>();
const PAGE = 50;
const HELD: readonly DepositStatus[] = ['authorised', 'in_review'];

/**
 * The deposit console (issue 30 §3): every hold with its state, amount, card (brand and last four),
 * when its authorisation lapses and when it is renewed or settles. A manager releases a hold, or
 * captures part of it with a reason and its evidence (which posts a charge and settles the hold).
 */
export function DepositsPage() {
  useTitle('Deposits');
  const can = useCan();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<DepositStatus | ''>('');
  const [offset, setOffset] = useState(0);
  const [releasing, setReleasing] = useState<DepositHold | null>(null);
  const [capturing, setCapturing] = useState<DepositHold | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const list = useQuery(depositsQuery({ status: status || undefined, limit: PAGE, offset }));
  const locations = useQuery(fleetLocationsQuery).data?.locations;
  const mayRelease = can('deposits.release');
  const mayCapture = can('deposits.capture');

  const columns = useMemo(() => {
    const at = (iso: string | null, d: DepositHold) =>
      iso ? formatDayTime(iso, zoneOf(locations, d.locationId)) : '—';
    return [
      column.accessor('tripReference', {
        header: 'Trip',
        cell: (c) => (
          <Anchor component={Link} to={paths.trip(c.row.original.tripReference)} size="sm">
            {c.getValue()}
          </Anchor>
        ),
      }),
      column.accessor((d) => d.renterName ?? 'Account closed', { id: 'renter', header: 'Renter' }),
      column.accessor('statusLabel', {
        header: 'Status',
        cell: (c) => <Badge color={DEPOSIT_STATUS_COLOURS[c.row.original.status]}>{c.getValue()}</Badge>,
      }),
      column.accessor('amount', {
        header: 'Amount',
        cell: (c) => {
          const d = c.row.original;
          const extra = [
            d.linkedCents > 0 && `${formatTotal(d.linkedCents)} for charges`,
            d.capturedCents > 0 && `${formatTotal(d.capturedCents)} captured`,
            d.refundedCents > 0 && `${formatTotal(d.refundedCents)} refunded`,
          ].filter(Boolean);
          return (
            <>
              {formatTotal(c.getValue())}
              {extra.length > 0 && (
                <Text size="xs" c="dimmed">
                  {extra.join(' · ')}
                </Text>
              )}
            </>
          );
        },
      }),
      column.accessor((d) => cardWords(d.cardBrand, d.cardLast4), { id: 'card', header: 'Card' }),
      column.accessor('expiresAt', { header: 'Expires', cell: (c) => at(c.getValue(), c.row.original) }),
      column.accessor((d) => d.reauthoriseAt ?? d.reviewEndsAt ?? d.settledAt, {
        id: 'next',
        header: 'Re-authorised / settles',
        enableSorting: false,
        cell: (c) => {
          const d = c.row.original;
          if (d.settledAt) return `Settled ${at(d.settledAt, d)}`;
          if (d.reviewEndsAt) return `Settles ${at(d.reviewEndsAt, d)}`;
          if (d.reauthoriseAt) return `Renewed ${at(d.reauthoriseAt, d)}`;
          return '—';
        },
      }),
      ...(mayRelease || mayCapture
        ? [
            column.display({
              id: 'actions',
              header: () => <VisuallyHidden>Actions</VisuallyHidden>,
              cell: (c) => {
                const d = c.row.original;
                if (!HELD.includes(d.status)) return null;
                return (
                  <Group gap={4} wrap="nowrap">
                    {mayRelease && (
                      <Button
                        size="compact-xs"
                        variant="default"
                        aria-label={`Release the deposit of trip ${d.tripReference}`}
                        onClick={() => setReleasing(d)}
                      >
                        Release
                      </Button>
                    )}
                    {mayCapture && (
                      <Button
                        size="compact-xs"
                        variant="outline"
                        color="red.9"
                        aria-label={`Capture part of the deposit of trip ${d.tripReference}`}
                        onClick={() => setCapturing(d)}
                      >
                        Capture part
                      </Button>
                    )}
                  </Group>
                );
              },
            }),
          ]
        : []),
    ];
  }, [locations, mayCapture, mayRelease]);

  const done = async (text: string) => {
    setReleasing(null);
    setCapturing(null);
    setNotice(text);
    await queryClient.invalidateQueries({ queryKey: moneyKeys.all });
  };

  return (
    <Stack>
      <Title order={1}>Deposits</Title>
      <Text size="sm" maw={760}>
        Every deposit hold, newest first. A hold stays on the card for review after the return and settles by itself
        when the review ends: the charges linked to it are taken and the rest released.
      </Text>
      <NativeSelect
        label="Status"
        w={240}
        value={status}
        onChange={(e) => {
          setStatus(e.currentTarget.value as DepositStatus | '');
          setOffset(0);
        }}
        data={[
          { value: '', label: 'Any' },
          ...DEPOSIT_STATUSES.map((s) => ({ value: s, label: DEPOSIT_STATUS_LABELS[s] })),
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
        <Loader role="status" aria-label="Loading the deposits" />
      ) : (
        <DataGrid
          caption="Deposit holds"
          data={list.data.deposits}
          columns={columns}
          getRowId={(d) => d.paymentId}
          minWidth={1000}
          emptyText="No deposit hold matches."
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
      {releasing && (
        <Modal
          opened
          onClose={() => setReleasing(null)}
          title={`Release the deposit of trip ${releasing.tripReference}`}
        >
          <ReleaseForm hold={releasing} onCancel={() => setReleasing(null)} onDone={(t) => void done(t)} />
        </Modal>
      )}
      {capturing && (
        <Modal
          opened
          onClose={() => setCapturing(null)}
          title={`Capture part of the deposit of trip ${capturing.tripReference}`}
          size="lg"
        >
          <Text size="sm" mb="sm">
            Held: {formatTotal(capturing.amount)} on {cardWords(capturing.cardBrand, capturing.cardLast4)}. The charge
            is posted, taken from the hold, and the rest of the hold is released.
          </Text>
          <ChargeForm
            tripId={capturing.tripId}
            initialType="miscellaneous"
            submitLabel="Capture and release the rest"
            send={(body) => captureDeposit(capturing.paymentId, body)}
            onCancel={() => setCapturing(null)}
            onDone={(amount, label) =>
              void done(
                `${formatTotal(amount)} (${label}) captured from the deposit of trip ${capturing.tripReference}.`,
              )
            }
          />
        </Modal>
      )}
    </Stack>
  );
}

function ReleaseForm({
  hold,
  onCancel,
  onDone,
}: {
  hold: DepositHold;
  onCancel: () => void;
  onDone: (text: string) => void;
}) {
  const [reason, setReason] = useState('');
  const release = useMutation({
    mutationFn: () => releaseDeposit(hold.paymentId, reason.trim()),
    onSuccess: (answer) => {
      const taken = answer.deposit.capturedCents;
      onDone(
        taken > 0
          ? `The deposit of trip ${hold.tripReference} is settled: ${formatTotal(taken)} taken for its charges, the rest released.`
          : `The deposit of trip ${hold.tripReference} is released in full.`,
      );
    },
  });
  return (
    <Stack gap="sm">
      <Text size="sm">
        {hold.linkedCents > 0
          ? `${formatTotal(hold.linkedCents)} of charges is linked to this hold: that is taken, and the rest of ${formatTotal(hold.amount)} released.`
          : `All ${formatTotal(hold.amount)} goes back to the renter's card.`}
      </Text>
      <Textarea
        label="Note (optional)"
        value={reason}
        onChange={(e) => setReason(e.currentTarget.value)}
        maxLength={500}
        autosize
      />
      {release.isError && (
        <Alert color="red" role="alert">
          {errorText(release.error)}
        </Alert>
      )}
      <Group justify="flex-end" gap="xs">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button loading={release.isPending} onClick={() => release.mutate()}>
          Release
        </Button>
      </Group>
    </Stack>
  );
}
