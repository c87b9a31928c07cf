import { Alert, Anchor, Button, Group, Input, Modal, Text, Title, UnstyledButton } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, type FormEvent, useId, useState } from 'react';
import { DISPUTE_REASON_MAX, DISPUTE_REASON_MIN, waitingWords } from '@ampere/domain/charges';
import type { RenterCharge } from '@ampere/domain/contract/charges';
import { formatInstantInZone } from '@ampere/domain/format';
import { formatTotal } from '@ampere/domain/money';
import { ApiError } from '../../../shared/api/client.ts';
import { Link, useParams } from '../../../shared/router/react.tsx';
import { paths, patterns } from '../../../shared/paths.ts';
import { TripFailure, TripLoading } from '../../../shared/errors/trip-fallback.tsx';
import { chargeKeys, chargeQueryOptions, disputeCharge } from '../api/charges-api.ts';
import { moneyLines } from '../components/charge-words.ts';
import tripClasses from '../components/charges.module.css';
import classes from './charge-page.module.css';

/**
 * /trip/:id/charges/:chargeId (issue 30 §2): a charge posted after the trip, as the text and email
 * link to it — the fee's catalogue label and rule, the reason, the amount and where it was paid
 * from, the evidence (photos enlarge when tapped), and the dispute: its form while the window is
 * open (its end shown on the pickup place's clock), then its status and outcome.
 */
export function ChargePage() {
  const { id, chargeId } = useParams(patterns.trip.charge);
  const charge = useQuery(chargeQueryOptions(id, chargeId));
  if (charge.isPending) return <TripLoading />;
  if (charge.error) return <TripFailure error={charge.error} />;
  return <ChargeView charge={charge.data} platformId={id} />;
}

function ChargeView({ charge: c, platformId }: { charge: RenterCharge; platformId: string }) {
  const [enlarged, setEnlarged] = useState<RenterCharge['evidence'][number] | null>(null);
  const zone = c.timezone;
  const photos = c.evidence.filter((e) => e.kind === 'photo' && e.url);
  const documents = c.evidence.filter((e) => e.kind === 'document' && e.url);
  const readings = c.evidence.filter((e) => e.kind === 'reading');

  return (
    <div className={tripClasses.page}>
      <Anchor component={Link} to={paths.trip.detail(platformId)} size="sm" c="ampere.8" underline="always">
        ← Trip {c.tripReference}
      </Anchor>
      <div className={tripClasses.head}>
        <div>
          <Title order={1}>{c.label}</Title>
          <Group gap="xs" mt={4}>
            <span className={tripClasses.status}>{c.statusLabel}</span>
            <Text size="sm" c="dimmed">
              Posted {formatInstantInZone(c.postedAt, zone)}
            </Text>
          </Group>
        </div>
        <Text fz={28} fw={700} aria-label={`Amount ${formatTotal(c.amount)}`}>
          {formatTotal(c.amount)}
        </Text>
      </div>

      <section className={tripClasses.panel} aria-labelledby="why-title">
        <Title order={2} size="h4" id="why-title" mb="xs">
          Why you were charged
        </Title>
        <Text size="sm">{c.reason}</Text>
        <Text size="sm" c="dimmed" mt={6}>
          {c.label}: {c.when}
        </Text>
        {c.quantity > 1 && (
          <Text size="sm" mt={6}>
            {c.quantity} × {formatTotal(c.unitCents)}
          </Text>
        )}
        {c.occurredAt && (
          <Text size="sm" mt={6}>
            On {formatInstantInZone(c.occurredAt, zone)}
            {c.externalReference ? ` · Reference ${c.externalReference}` : ''}
          </Text>
        )}
        <div role="group" aria-label="How it was paid" style={{ marginTop: 10 }}>
          {moneyLines(c).map((l) => (
            <div key={l.label} className={tripClasses.line}>
              <span>{l.label}</span>
              <span>{l.amount}</span>
            </div>
          ))}
        </div>
      </section>

      <section className={tripClasses.panel} aria-labelledby="evidence-title">
        <Title order={2} size="h4" id="evidence-title" mb="xs">
          Evidence
        </Title>
        {c.evidence.length === 0 && (
          <Text size="sm" c="dimmed">
            No evidence is attached.
          </Text>
        )}
        {photos.length > 0 && (
          <ul className={classes.photos}>
            {photos.map((p) => (
              <li key={p.id}>
                <UnstyledButton
                  className={classes.thumb}
                  onClick={() => setEnlarged(p)}
                  aria-label={`Enlarge the photo: ${p.label}`}
                >
                  <img src={p.url ?? ''} alt={p.label} loading="lazy" />
                </UnstyledButton>
                <Text size="xs" c="dimmed" mt={2}>
                  {p.label}
                </Text>
              </li>
            ))}
          </ul>
        )}
        {readings.map((r) => (
          <div key={r.id} className={tripClasses.line}>
            <span>{r.label}</span>
            <strong>{r.value}</strong>
          </div>
        ))}
        {documents.map((d) => (
          <div key={d.id}>
            <Anchor href={d.url ?? ''} target="_blank" rel="noopener" size="sm" c="ampere.8" underline="always">
              {d.label} (document, opens in a new tab)
            </Anchor>
          </div>
        ))}
      </section>

      <DisputeSection charge={c} platformId={platformId} />

      <Anchor component={Link} to={paths.trip.receipt(platformId)} size="sm" c="ampere.8" underline="always">
        Receipt
      </Anchor>

      <Modal
        opened={enlarged !== null}
        onClose={() => setEnlarged(null)}
        title={enlarged?.label ?? 'Photo'}
        size="xl"
        centered
        closeButtonProps={{ 'aria-label': 'Close the photo' }}
      >
        {enlarged?.url && <img src={enlarged.url} alt={enlarged.label} className={classes.large} />}
      </Modal>
    </div>
  );
}

function DisputeSection({ charge: c, platformId }: { charge: RenterCharge; platformId: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const fieldId = useId();
  const zone = c.timezone;
  const send = useMutation({
    mutationFn: () => disputeCharge(c.id, reason.trim()),
    onSuccess: async (updated) => {
      queryClient.setQueryData(chargeKeys.one(platformId, c.id), updated);
      setOpen(false);
      await queryClient.invalidateQueries({ queryKey: chargeKeys.trip(platformId), exact: true });
    },
    onError: (err) =>
      setError(err instanceof ApiError ? err.message : 'Your dispute could not be sent. Try again in a moment.'),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim().length < DISPUTE_REASON_MIN) {
      setError(`Tell us what is wrong in at least ${DISPUTE_REASON_MIN} characters.`);
      return;
    }
    setError(null);
    send.mutate();
  };
  const d = c.dispute;
  const waiting = waitingWords(c);

  return (
    <section className={tripClasses.panel} aria-labelledby="dispute-title">
      <Title order={2} size="h4" id="dispute-title" mb="xs">
        Dispute
      </Title>
      {d ? (
        <>
          {d.outcome === null && (
            <Alert color="yellow" role="status" title="Dispute received" styles={{ title: { color: '#5c3d00' } }}>
              We received your dispute on {formatInstantInZone(d.openedAt, zone)} and are reviewing it. The charge waits
              until we decide, and we will text and email you.
            </Alert>
          )}
          {d.outcome === 'accepted' && (
            <Alert color="green" role="status" title="Dispute accepted" styles={{ title: { color: '#0b5c2c' } }}>
              {c.refundedCents > 0
                ? `We refunded ${formatTotal(c.refundedCents)} to your card. It shows on your receipt as a Refund.`
                : 'Nothing is charged for this.'}
              {d.staffReason ? ` ${d.staffReason}` : ''}
            </Alert>
          )}
          {d.outcome === 'rejected' && (
            <Alert color="red" role="status" title="Dispute rejected" styles={{ title: { color: '#8a1c1c' } }}>
              The charge stands. {d.staffReason}
            </Alert>
          )}
          <Text size="sm" mt="sm" fw={600}>
            What you wrote
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {d.text}
          </Text>
        </>
      ) : c.canDispute ? (
        <>
          <Text size="sm">
            Think this charge is wrong? You can dispute it until{' '}
            <strong>{formatInstantInZone(c.disputeOpenUntil, zone)}</strong>.{' '}
            {waiting
              ? `While we review it, the ${waiting} waits: nothing more is taken.`
              : 'While we review it, what was already taken stays until we decide.'}
          </Text>
          {open ? (
            <form onSubmit={submit} noValidate style={{ marginTop: 12 }}>
              {/* Not Mantine's Textarea: its autosize library would join the framework every page loads. */}
              <Input.Wrapper
                id={fieldId}
                label="What is wrong with this charge?"
                description={`At least ${DISPUTE_REASON_MIN} characters.`}
                error={error}
                required
              >
                <Input
                  component="textarea"
                  id={fieldId}
                  rows={4}
                  value={reason}
                  onChange={(e: ChangeEvent<HTMLTextAreaElement>) => {
                    setReason(e.currentTarget.value);
                    setError(null);
                  }}
                  maxLength={DISPUTE_REASON_MAX}
                  required
                  error={error}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${fieldId}-description ${fieldId}-error` : `${fieldId}-description`}
                />
              </Input.Wrapper>
              <Group mt="sm" gap="xs">
                <Button type="submit" loading={send.isPending}>
                  Send dispute
                </Button>
                <Button variant="default" onClick={() => setOpen(false)}>
                  Cancel
                </Button>
              </Group>
            </form>
          ) : (
            <Button mt="sm" variant="outline" color="ampere.8" onClick={() => setOpen(true)}>
              Dispute this charge
            </Button>
          )}
        </>
      ) : (
        <Text size="sm">
          {c.status === 'refunded'
            ? 'This charge was refunded.'
            : `The time to dispute this charge ended ${formatInstantInZone(c.disputeOpenUntil, zone)}. Contact support if something is wrong.`}
        </Text>
      )}
    </section>
  );
}
