import { Anchor, Stack, Text, Title } from '@mantine/core';
import { DEPOSIT_REVIEW_HOURS } from '@ampere/domain/charges';
import type { Reservation } from '@ampere/domain/contract/booking';
import { waivedNote } from '@ampere/domain/end-trip';
import { endingIn, formatInstantInZone } from '@ampere/domain/format';
import { formatTotal } from '@ampere/domain/money';
import { depositStory } from '@ampere/domain/receipt';
import { type ReturnFeeTaken, returnSummary } from '@ampere/domain/return-summary';
import { Link } from '../../../shared/router/react.tsx';
import { paths } from '../../../shared/paths.ts';
import classes from './trip.module.css';

/**
 * After End Trip (decision 054): what the return actually took, read from the ended trip's rows —
 * each fee and where its money came from, the deposit's outcome with its date on the return
 * place's clock, and any balance left with the way to pay it.
 */
export function EndTripSummary({ reservation: r }: { reservation: Reservation }) {
  const s = returnSummary(r.transactions);
  const zone = r.dropoff_location.timezone;
  const when = (iso: string) => formatInstantInZone(iso, zone);
  const source = (f: ReturnFeeTaken) => {
    if (f.source === 'due') return 'left to pay';
    if (f.source === 'waived') return waivedNote(f.waived);
    if (f.source === 'card') return f.cardLast4 ? `paid by card ${endingIn(f.cardLast4)}` : 'paid by card';
    return f.takenAt ? `from your deposit, ${when(f.takenAt)}` : 'from your deposit';
  };
  const d = s.deposit;
  const keptFor = s.fees.filter((f) => f.source === 'deposit').map((f) => f.description);
  return (
    <Stack gap="sm">
      <Text size="sm">Your trip has ended and your digital key no longer opens the car.</Text>
      <section aria-labelledby="ended-fees-title">
        <Title order={3} size="h6" id="ended-fees-title" mb={4}>
          Fees taken
        </Title>
        {s.fees.length === 0 ? (
          <Text size="sm">None: the car came back as booked.</Text>
        ) : (
          <div role="group" aria-label="Fees taken">
            {s.fees.map((f, i) => (
              <div key={i} className={classes.line}>
                <span>
                  {f.description}
                  <Text size="xs" c="dimmed">
                    {source(f)}
                  </Text>
                </span>
                <span>{formatTotal(f.amount)}</span>
              </div>
            ))}
            <div className={classes.total}>
              <span>Total</span>
              <span>{formatTotal(s.total)}</span>
            </div>
          </div>
        )}
      </section>
      {d && (
        <Text size="sm" role="group" aria-label="Security deposit">
          {d.settledAt
            ? `${depositStory({ held: d.held, kept: d.kept, releasedAt: d.settledAt, fees: keptFor }, zone)}.`
            : `Your ${formatTotal(d.held)} deposit stays held for up to ${DEPOSIT_REVIEW_HOURS} hours while we check the car; then what the fees leave is released, and your receipt shows it.`}
        </Text>
      )}
      {s.due > 0 && (
        <Text size="sm">
          {formatTotal(s.due)} is left to pay.{' '}
          <Anchor component={Link} to={paths.trip.pay(r.platform_id)} c="ampere.8" underline="always" fw={700}>
            Review &amp; Pay
          </Anchor>
        </Text>
      )}
    </Stack>
  );
}
