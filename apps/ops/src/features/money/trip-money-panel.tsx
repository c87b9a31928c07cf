import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  Paper,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import type { Charge, TripPayment } from '@ampere/domain/contract/ops-money';
import { formatTotal } from '@ampere/domain/money';
import { errorText } from '../../shared/api.ts';
import { formatDayTime } from '../../shared/dates.ts';
import { DataGrid } from '../../shared/grid/data-grid.tsx';
import { useCan } from '../../shared/me.ts';
import { ChargeForm } from './charge-form.tsx';
import { EvidenceList } from './evidence-list.tsx';
import { moneyKeys, postCharge, tripMoneyQuery } from './money-api.ts';
import { CHARGE_STATUS_COLOURS, DEPOSIT_STATUS_COLOURS, cardWords } from './money-words.ts';
import { RefundForm, limitWords } from './refund-form.tsx';

const chargeColumn = createColumnHelper<Charge>();
const paymentColumn = createColumnHelper<TripPayment>();

/**
 * A trip's money on its console page (issue 30 §2–§3): the charges posted after it with their
 * state, evidence and dispute, "Post a charge", the deposit hold, and its payments with "Refund".
 */
export function TripMoneyPanel({ tripId }: { tripId: string }) {
  const can = useCan();
  const queryClient = useQueryClient();
  const money = useQuery(tripMoneyQuery(tripId));
  const [posting, setPosting] = useState(false);
  const [refunding, setRefunding] = useState<TripPayment | null>(null);
  const [opened, setOpened] = useState<Charge | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const zone = money.data?.timezone ?? 'UTC';
  const mayRefund = can('refunds.issue');

  const reread = () => queryClient.invalidateQueries({ queryKey: moneyKeys.all });
  const timelineReread = () => queryClient.invalidateQueries({ queryKey: ['timeline', tripId] });

  const chargeColumns = useMemo(
    () => [
      chargeColumn.accessor('label', {
        header: 'Charge',
        cell: (c) => (
          <Anchor component="button" type="button" size="sm" ta="start" onClick={() => setOpened(c.row.original)}>
            {c.getValue()}
            {c.row.original.quantity > 1 ? ` × ${c.row.original.quantity}` : ''}
          </Anchor>
        ),
      }),
      chargeColumn.accessor('amount', { header: 'Amount', cell: (c) => formatTotal(c.getValue()) }),
      chargeColumn.accessor('statusLabel', {
        header: 'Status',
        cell: (c) => <Badge color={CHARGE_STATUS_COLOURS[c.row.original.status]}>{c.getValue()}</Badge>,
      }),
      chargeColumn.accessor('postedAt', {
        header: 'Posted',
        cell: (c) =>
          `${formatDayTime(c.getValue(), zone)}${c.row.original.postedByName ? ` by ${c.row.original.postedByName}` : ''}`,
      }),
      chargeColumn.accessor((c) => c.evidence.length, { id: 'evidence', header: 'Evidence' }),
      chargeColumn.accessor('disputeOpenUntil', {
        header: 'Dispute',
        enableSorting: false,
        cell: (c) => {
          const d = c.row.original.dispute;
          if (!d) return `Open until ${formatDayTime(c.getValue(), zone)}`;
          return d.outcome ? `Dispute ${d.outcome}` : 'Disputed: waiting for a decision';
        },
      }),
    ],
    [zone],
  );

  const paymentColumns = useMemo(
    () => [
      paymentColumn.accessor('label', { header: 'Payment' }),
      // In words staff understand ('Held (not yet taken)', 'Paid'), never the provider's raw status.
      paymentColumn.accessor('statusLabel', { header: 'Status' }),
      paymentColumn.accessor('amount', { header: 'Amount', cell: (c) => formatTotal(c.getValue()) }),
      paymentColumn.accessor('capturedCents', { header: 'Taken', cell: (c) => formatTotal(c.getValue()) }),
      paymentColumn.accessor('refundedCents', { header: 'Refunded', cell: (c) => formatTotal(c.getValue()) }),
      paymentColumn.accessor((p) => cardWords(p.cardBrand, p.cardLast4), { id: 'card', header: 'Card' }),
      paymentColumn.accessor('at', { header: 'When', cell: (c) => formatDayTime(c.getValue(), zone) }),
      ...(mayRefund
        ? [
            paymentColumn.display({
              id: 'actions',
              header: () => <VisuallyHidden>Actions</VisuallyHidden>,
              cell: (c) =>
                c.row.original.refundableCents > 0 ? (
                  <Button
                    size="compact-xs"
                    variant="default"
                    aria-label={`Refund ${c.row.original.label}`}
                    onClick={() => setRefunding(c.row.original)}
                  >
                    Refund
                  </Button>
                ) : null,
            }),
          ]
        : []),
    ],
    [mayRefund, zone],
  );

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="trip-money">
      <Group justify="space-between" align="flex-start" mb="xs">
        <div>
          <Title order={2} size="h4" id="trip-money">
            Charges and payments
          </Title>
          {money.data && (
            <Text size="sm" c="dimmed">
              Times are on the location’s clock ({zone}).
            </Text>
          )}
        </div>
        {can('charges.post') && money.data && <Button onClick={() => setPosting(true)}>Post a charge</Button>}
      </Group>
      {notice && (
        <Alert
          color="green"
          role="status"
          mb="sm"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setNotice(null)}
        >
          {notice}
        </Alert>
      )}
      {money.isError ? (
        <Alert color="red" role="alert">
          {errorText(money.error)}
        </Alert>
      ) : money.isPending ? (
        <Loader role="status" aria-label="Loading the trip’s charges" />
      ) : (
        <Stack gap="md">
          <DataGrid
            caption="Charges after the trip"
            data={money.data.charges}
            columns={chargeColumns}
            getRowId={(c) => c.id}
            minWidth={820}
            emptyText="No charge has been posted on this trip."
          />
          {money.data.deposit && (
            <Text size="sm" data-testid="trip-deposit">
              Deposit:{' '}
              <Badge color={DEPOSIT_STATUS_COLOURS[money.data.deposit.status]} size="sm">
                {money.data.deposit.statusLabel}
              </Badge>{' '}
              {formatTotal(money.data.deposit.amount)} on{' '}
              {cardWords(money.data.deposit.cardBrand, money.data.deposit.cardLast4)}
              {money.data.deposit.linkedCents > 0
                ? `, ${formatTotal(money.data.deposit.linkedCents)} of it for charges`
                : ''}
              {money.data.deposit.reviewEndsAt
                ? `; settles ${formatDayTime(money.data.deposit.reviewEndsAt, zone)}`
                : ''}
              .
            </Text>
          )}
          <DataGrid
            caption="Payments"
            data={money.data.payments}
            columns={paymentColumns}
            getRowId={(p) => p.paymentId}
            minWidth={860}
            emptyText="No payment on this trip yet."
          />
          {mayRefund && (
            <Text size="xs" c="dimmed">
              {limitWords(money.data.refundLimitCents)}
            </Text>
          )}
          {money.data.refunds.length > 0 && (
            <Stack gap={2} component="section" aria-label="Refunds">
              <Text size="sm" fw={600}>
                Refunds
              </Text>
              {money.data.refunds.map((r) => (
                <Text size="sm" key={r.id}>
                  {formatTotal(r.amount)} on {formatDayTime(r.createdAt, zone)}
                  {r.issuedByName ? ` by ${r.issuedByName}` : ''}: {r.reason}
                  {r.disputeId ? ' (dispute accepted)' : ''}
                </Text>
              ))}
            </Stack>
          )}
        </Stack>
      )}
      {posting && (
        <Modal opened onClose={() => setPosting(false)} title="Post a charge" size="lg">
          <ChargeForm
            tripId={tripId}
            submitLabel="Post the charge"
            send={(body) => postCharge(tripId, body)}
            onCancel={() => setPosting(false)}
            onDone={(amount, label) => {
              setPosting(false);
              setNotice(`${label} of ${formatTotal(amount)} posted. The renter is told by text and email.`);
              void reread();
              void timelineReread();
            }}
          />
        </Modal>
      )}
      {refunding && money.data && (
        <Modal opened onClose={() => setRefunding(null)} title={`Refund: ${refunding.label}`}>
          <RefundForm
            payment={refunding}
            limitCents={money.data.refundLimitCents}
            onCancel={() => setRefunding(null)}
            onDone={(cents) => {
              setRefunding(null);
              setNotice(`${formatTotal(cents)} refunded. It shows on the renter’s receipt.`);
              void reread();
              void timelineReread();
            }}
          />
        </Modal>
      )}
      {opened && (
        <Modal opened onClose={() => setOpened(null)} title={opened.label} size="lg">
          <ChargeDetails charge={opened} zone={zone} />
        </Modal>
      )}
    </Paper>
  );
}

/** One charge in full: its amount and state, the reason, the evidence, and the dispute if any. */
export function ChargeDetails({ charge, zone }: { charge: Charge; zone: string }) {
  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Text fw={700}>{formatTotal(charge.amount)}</Text>
        <Badge color={CHARGE_STATUS_COLOURS[charge.status]}>{charge.statusLabel}</Badge>
        <Text size="sm" c="dimmed">
          Trip {charge.tripReference}
        </Text>
      </Group>
      <Text size="sm">
        <strong>Reason:</strong> {charge.reason}
      </Text>
      <Text size="sm" c="dimmed">
        Posted {formatDayTime(charge.postedAt, zone)}
        {charge.postedByName ? ` by ${charge.postedByName}` : ''}. The renter can dispute it until{' '}
        {formatDayTime(charge.disputeOpenUntil, zone)}.
      </Text>
      {(charge.fromDepositCents > 0 || charge.toCardCents > 0 || charge.owedCents > 0 || charge.onHoldCents > 0) && (
        <Text size="sm">
          {[
            charge.onHoldCents > 0 && `${formatTotal(charge.onHoldCents)} on the deposit hold`,
            charge.fromDepositCents > 0 && `${formatTotal(charge.fromDepositCents)} taken from the deposit`,
            charge.toCardCents > 0 &&
              `${formatTotal(charge.toCardCents)} charged to ${cardWords(charge.cardBrand, charge.cardLast4)}`,
            charge.owedCents > 0 && `${formatTotal(charge.owedCents)} owed`,
            charge.refundedCents > 0 && `${formatTotal(charge.refundedCents)} refunded`,
          ]
            .filter(Boolean)
            .join(' · ')}
        </Text>
      )}
      <EvidenceList evidence={charge.evidence} />
      {charge.dispute && (
        <Paper withBorder p="xs" component="section" aria-label="The renter’s dispute">
          <Text size="sm" fw={600}>
            The renter’s words ({formatDayTime(charge.dispute.openedAt, zone)})
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {charge.dispute.text}
          </Text>
          {charge.dispute.outcome && (
            <Text size="sm" mt={4}>
              {charge.dispute.outcome === 'accepted' ? 'Accepted' : 'Rejected'}
              {charge.dispute.decidedByName ? ` by ${charge.dispute.decidedByName}` : ''}
              {charge.dispute.decidedAt ? ` on ${formatDayTime(charge.dispute.decidedAt, zone)}` : ''}
              {charge.dispute.staffReason ? `: ${charge.dispute.staffReason}` : '.'}
            </Text>
          )}
        </Paper>
      )}
    </Stack>
  );
}
