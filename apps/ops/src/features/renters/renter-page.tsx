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
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link, useParams } from 'react-router';
import { formatPhone } from '@ampere/domain/account';
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
import { WHY_COLOURS, WHY_WORDS } from './words.ts';

const VERIFICATION_COLOURS = { verified: 'green.8', required: '#8a5300', failed: 'red.8' } as const;

/** A titled table that scrolls sideways on a phone. */
function Section({ title, empty, head, rows }: { title: string; empty: string; head: string[]; rows: ReactNode[] }) {
  return (
    <Stack gap="xs">
      <Title order={2} size="h3">
        {title}
      </Title>
      {rows.length === 0 ? (
        <Text c="dimmed">{empty}</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                {head.map((h) => (
                  <Table.Th key={h}>{h}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>{rows}</Table.Tbody>
          </Table>
        </Table.ScrollContainer>
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
        <Button size="xs" variant="light" onClick={onReview} aria-label={`Review the ${check.name}`}>
          Review…
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
        <Alert color="green" role="status" withCloseButton onClose={() => setDone(null)}>
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
            rows={license.checks.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>{formatInstant(c.createdAt)}</Table.Td>
                <Table.Td>
                  {c.status}
                  {c.reason ? ` · ${c.reason}` : ''}
                </Table.Td>
                <Table.Td>{c.decidedAt ? formatInstant(c.decidedAt) : '—'}</Table.Td>
                <Table.Td>
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
                </Table.Td>
              </Table.Tr>
            ))}
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
            rows={insurance.connections.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>{formatInstant(c.createdAt)}</Table.Td>
                <Table.Td>
                  {c.carrier ?? '—'}
                  {c.policyNumber ? ` · ${c.policyNumber}` : ''}
                </Table.Td>
                <Table.Td>
                  {c.status}
                  {c.effectiveStatus !== c.status ? ` (counts as ${c.effectiveStatus})` : ''}
                  {c.lastError ? ` · ${c.lastError}` : ''}
                </Table.Td>
                <Table.Td>
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
                </Table.Td>
              </Table.Tr>
            ))}
          />
        </Stack>
      </Paper>

      <Section
        title="Trips"
        empty="No trip at your locations."
        head={['Trip', 'Status', 'Pickup', 'Return', 'Location', 'Car']}
        rows={page.trips.map((t) => (
          <Table.Tr key={t.tripId}>
            <Table.Td>
              <Anchor component={Link} to={paths.trip(t.reference)} fw={600}>
                {t.reference}
              </Anchor>
            </Table.Td>
            <Table.Td>
              <Badge color={TRIP_STATUS_COLOURS[t.status]} style={{ minWidth: 'max-content' }}>
                {TRIP_STATUS_WORDS[t.status]}
              </Badge>
            </Table.Td>
            <Table.Td>{formatDayTime(t.pickupAt, t.timezone)}</Table.Td>
            <Table.Td>{formatDayTime(t.returnAt, t.timezone)}</Table.Td>
            <Table.Td>{t.locationName}</Table.Td>
            <Table.Td>{t.car}</Table.Td>
          </Table.Tr>
        ))}
      />
      <Section
        title="Messages"
        empty="No message sent yet."
        head={['When', 'Trip', 'To', 'Message', 'Status']}
        rows={page.messages.map((m) => (
          <Table.Tr key={m.id}>
            <Table.Td>{formatInstant(m.createdAt)}</Table.Td>
            <Table.Td>{m.tripReference}</Table.Td>
            <Table.Td>{m.channel === 'sms' ? `Text to ${formatPhone(m.to)}` : `Email to ${m.to}`}</Table.Td>
            <Table.Td>
              {m.kind === 'staff_text' ? (
                <Badge color="blue.8" mr="xs">
                  From staff
                </Badge>
              ) : null}
              {m.subject ? <strong>{m.subject}: </strong> : null}
              <Text span size="sm" style={{ whiteSpace: 'pre-line' }} lineClamp={3}>
                {m.body}
              </Text>
            </Table.Td>
            <Table.Td>{m.status}</Table.Td>
          </Table.Tr>
        ))}
      />
      <Section
        title="Charges and holds"
        empty="No payment yet."
        head={['When', 'Trip', 'Kind', 'Amount', 'Status', 'Card']}
        rows={page.charges.map((p) => (
          <Table.Tr key={p.id}>
            <Table.Td>{formatInstant(p.createdAt)}</Table.Td>
            <Table.Td>{p.tripReference}</Table.Td>
            <Table.Td>{p.kind === 'CHARGE' ? 'Charge' : 'Deposit hold'}</Table.Td>
            <Table.Td>
              {formatTotal(p.amountCents)}
              {p.capturedCents > 0 && p.kind === 'DEPOSIT_HOLD' ? ` · ${formatTotal(p.capturedCents)} captured` : ''}
              {p.refundedCents > 0 ? ` · ${formatTotal(p.refundedCents)} refunded` : ''}
            </Table.Td>
            <Table.Td>{p.status}</Table.Td>
            <Table.Td>{p.cardLast4 ? `•••• ${p.cardLast4}` : '—'}</Table.Td>
          </Table.Tr>
        ))}
      />
      <ReviewDialog check={reviewing} onClose={() => setReviewing(null)} onDone={setDone} />
    </Stack>
  );
}
