import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link, useParams } from 'react-router';
import { formatPhone } from '@ampere/domain/phone';
import type { RenterPage as Page } from '@ampere/domain/contract/ops-renters';
import { formatTotal } from '@ampere/domain/money';
import { REVIEW_DECISION_LABELS } from '@ampere/domain/renter-review';
import { errorText } from '../../shared/api.ts';
import { formatDayTime, formatInstant } from '../../shared/dates.ts';
import { useCan } from '../../shared/me.ts';
import { paths } from '../../shared/paths.ts';
import { TRIP_STATUS_COLOURS, TRIP_STATUS_WORDS } from '../../shared/trip-words.ts';
import { useTitle } from '../../shared/use-title.ts';
import { DoNotRentPanel, SendTextPanel } from './renter-actions.tsx';
import { type CheckToReview, ReviewDialog } from './review-dialog.tsx';
import { renterQuery } from './renters-api.ts';
import { WHY_COLOURS, WHY_WORDS, paymentStatusWords, statusWords } from './words.ts';

const VERIFICATION_COLOURS = { verified: 'green.8', required: '#8a5300', failed: 'red.8' } as const;

interface Row {
  key: string | number;
  cells: ReactNode[];
}

/**
 * A titled list: a table from a tablet up; on a phone each row is a card of its labelled values,
 * as a phone cannot show six columns side by side.
 */
function Section({ title, empty, head, rows }: { title: string; empty: string; head: string[]; rows: Row[] }) {
  return (
    <Stack gap="xs">
      <Title order={2} size="h3">
        {title}
      </Title>
      {rows.length === 0 ? (
        <Text c="dimmed">{empty}</Text>
      ) : (
        <>
          <Table striped visibleFrom="sm" style={{ overflowWrap: 'break-word' }}>
            <Table.Thead>
              <Table.Tr>
                {head.map((h) => (
                  <Table.Th key={h}>{h}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.key}>
                  {r.cells.map((c, i) => (
                    <Table.Td key={head[i]}>{c}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Stack gap="xs" hiddenFrom="sm">
            {rows.map((r) => (
              <Paper key={r.key} withBorder p="sm" component="dl" m={0} style={{ overflowWrap: 'anywhere' }}>
                {r.cells.map((c, i) => (
                  <Group key={head[i]} gap="xs" wrap="nowrap" align="flex-start">
                    <Text component="dt" size="sm" c="dimmed" w={90} style={{ flexShrink: 0 }}>
                      {head[i]}
                    </Text>
                    <Text component="dd" size="sm" m={0}>
                      {c}
                    </Text>
                  </Group>
                ))}
              </Paper>
            ))}
          </Stack>
        </>
      )}
    </Stack>
  );
}

/** What staff decided about a check, or the button to decide. */
function ReviewCell({
  check,
  onReview,
}: {
  check: Page['license']['checks'][number] & { name: string };
  onReview?: () => void;
}) {
  if (check.review)
    return (
      <Text size="sm">
        {REVIEW_DECISION_LABELS[check.review.decision]} by {check.review.decidedBy}
        {check.review.reason ? `: ${check.review.reason}` : ''}
      </Text>
    );
  if (!check.why) return null;
  return (
    <Group gap="xs" wrap="nowrap">
      <Badge color={WHY_COLOURS[check.why]}>{WHY_WORDS[check.why]}</Badge>
      {onReview && (
        <Button size="xs" variant="light" onClick={onReview}>
          Review<VisuallyHidden> the {check.name}</VisuallyHidden>
        </Button>
      )}
    </Group>
  );
}

/**
 * A renter's page (issue 30 §4): who they are (no card numbers), their do-not-rent status, a text
 * to send, their license and insurance checks with staff decisions, and their trips at your
 * locations with the messages sent and the charges taken.
 */
export function RenterPage() {
  const { renterId = '' } = useParams();
  const can = useCan();
  const query = useQuery(renterQuery(renterId));
  const [reviewing, setReviewing] = useState<CheckToReview | null>(null);
  const [done, setDone] = useState<string | null>(null);
  useTitle(query.data ? query.data.renter.name : 'Renter');
  if (query.isPending) return <Loader role="status" aria-label="Loading the renter" />;
  if (query.isError)
    return (
      <Alert color="red" role="alert">
        {errorText(query.error)}
      </Alert>
    );
  const page = query.data;
  const { renter, license, insurance } = page;
  const review = (c: CheckToReview) => (can('verifications.review') ? () => setReviewing(c) : undefined);
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>{renter.name}</Title>
        <Text>
          <Anchor href={`tel:${renter.phone}`}>{formatPhone(renter.phone)}</Anchor>
          {renter.email ? ` · ${renter.email}` : ''}
          {renter.city ? ` · ${renter.city}, ${renter.state ?? ''}` : ''}
        </Text>
        <Text size="sm" c="dimmed">
          Renter since {formatInstant(renter.createdAt)}
          {renter.birthday ? ` · born ${renter.birthday}` : ''}
        </Text>
      </Stack>
      {done && (
        <Alert color="green" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setDone(null)}>
          {done}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, md: can('renters.message') ? 2 : 1 }}>
        <DoNotRentPanel page={page} onDone={setDone} />
        {can('renters.message') && <SendTextPanel page={page} onDone={setDone} />}
      </SimpleGrid>

      <Paper withBorder p="md">
        <Stack gap="sm">
          <Group gap="sm">
            <Title order={2} size="h3">
              Driver’s license
            </Title>
            <Badge color={VERIFICATION_COLOURS[license.verification]}>{license.verification}</Badge>
          </Group>
          <Text size="sm">
            Provider’s word: {license.status ?? 'no decision yet'}
            {license.override ? ' · let through by staff' : ''}
            {license.name ? ` · ${license.name}` : ''}
            {license.expiration ? ` · expires ${license.expiration}` : ''}
          </Text>
          <Section
            title="License checks"
            empty="No license check yet."
            head={['Started', 'Provider said', 'Decided', 'Review']}
            rows={license.checks.map((c) => ({
              key: c.id,
              cells: [
                <>{formatInstant(c.createdAt)}</>,
                <>
                  {statusWords(c.status)}
                  {c.reason ? ` · ${c.reason}` : ''}
                </>,
                <>{c.decidedAt ? formatInstant(c.decidedAt) : '—'}</>,
                <>
                  <ReviewCell
                    check={{ ...c, name: 'license check' }}
                    onReview={
                      c.why
                        ? review({
                            subject: 'license',
                            checkId: c.id,
                            why: c.why,
                            renterName: renter.name,
                            providerStatus: c.status,
                          })
                        : undefined
                    }
                  />
                </>,
              ],
            }))}
          />
        </Stack>
      </Paper>

      <Paper withBorder p="md">
        <Stack gap="sm">
          <Group gap="sm">
            <Title order={2} size="h3">
              Insurance
            </Title>
            <Badge color={insurance.verified ? 'green.8' : '#8a5300'}>
              {insurance.verified ? 'verified' : 'required'}
            </Badge>
          </Group>
          <Section
            title="Insurance connections"
            empty="No insurance connected yet."
            head={['Connected', 'Insurer', 'State', 'Review']}
            rows={insurance.connections.map((c) => ({
              key: c.id,
              cells: [
                <>{formatInstant(c.createdAt)}</>,
                <>
                  {c.carrier ?? '—'}
                  {c.policyNumber ? ` · ${c.policyNumber}` : ''}
                </>,
                <>
                  {statusWords(c.status)}
                  {c.effectiveStatus !== c.status ? ` (counts as ${statusWords(c.effectiveStatus)})` : ''}
                  {c.lastError ? ` · ${c.lastError}` : ''}
                </>,
                <>
                  <ReviewCell
                    check={{ ...c, reason: c.lastError, decidedAt: null, name: 'insurance connection' }}
                    onReview={
                      c.why
                        ? review({
                            subject: 'insurance',
                            checkId: c.id,
                            why: c.why,
                            renterName: renter.name,
                            providerStatus: c.status,
                          })
                        : undefined
                    }
                  />
                </>,
              ],
            }))}
          />
        </Stack>
      </Paper>

      <Section
        title="Trips"
        empty="No trip at your locations."
        head={['Trip', 'Status', 'Pickup', 'Return', 'Location', 'Car']}
        rows={page.trips.map((t) => ({
          key: t.tripId,
          cells: [
            <>
              <Anchor component={Link} to={paths.trip(t.reference)} fw={600}>
                {t.reference}
              </Anchor>
            </>,
            <>
              <Badge color={TRIP_STATUS_COLOURS[t.status]} style={{ minWidth: 'max-content' }}>
                {TRIP_STATUS_WORDS[t.status]}
              </Badge>
            </>,
            <>{formatDayTime(t.pickupAt, t.timezone)}</>,
            <>{formatDayTime(t.returnAt, t.timezone)}</>,
            <>{t.locationName}</>,
            <>{t.car}</>,
          ],
        }))}
      />
      <Section
        title="Messages"
        empty="No message sent yet."
        head={['When', 'Trip', 'To', 'Message', 'Status']}
        rows={page.messages.map((m) => ({
          key: m.id,
          cells: [
            <>{formatInstant(m.createdAt)}</>,
            <>{m.tripReference}</>,
            <>{m.channel === 'sms' ? `Text to ${formatPhone(m.to)}` : `Email to ${m.to}`}</>,
            <>
              {m.kind === 'staff_text' ? (
                <Badge color="blue.8" mr="xs">
                  From staff
                </Badge>
              ) : null}
              {m.subject ? <strong>{m.subject}: </strong> : null}
              <Text span size="sm" style={{ whiteSpace: 'pre-line' }} lineClamp={3}>
                {m.body}
              </Text>
            </>,
            <>{statusWords(m.status)}</>,
          ],
        }))}
      />
      <Section
        title="Charges and holds"
        empty="No payment yet."
        head={['When', 'Trip', 'Kind', 'Amount', 'Status', 'Card']}
        rows={page.charges.map((p) => ({
          key: p.id,
          cells: [
            <>{formatInstant(p.createdAt)}</>,
            <>{p.tripReference}</>,
            <>{p.kind === 'CHARGE' ? 'Charge' : 'Deposit hold'}</>,
            <>
              {formatTotal(p.amountCents)}
              {p.capturedCents > 0 && p.kind === 'DEPOSIT_HOLD' ? ` · ${formatTotal(p.capturedCents)} captured` : ''}
              {p.refundedCents > 0 ? ` · ${formatTotal(p.refundedCents)} refunded` : ''}
            </>,
            <>{paymentStatusWords(p.kind, p.status)}</>,
            <>{p.cardLast4 ? `•••• ${p.cardLast4}` : '—'}</>,
          ],
        }))}
      />
      <ReviewDialog check={reviewing} onClose={() => setReviewing(null)} onDone={setDone} />
    </Stack>
  );
}
