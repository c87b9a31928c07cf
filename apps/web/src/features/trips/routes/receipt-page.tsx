import { Anchor, Badge, Button, Group, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { ADDON_LABELS } from '@ampere/domain/constants';
import type { Reservation } from '@ampere/domain/contract/booking';
import { formatInstant, formatInstantInZone } from '@ampere/domain/format';
import { formatTotal } from '@ampere/domain/money';
import { cardTotal, receiptCards, receiptTitle } from '@ampere/domain/receipt';
import { paths } from '../../../app/paths.ts';
import { marketingLink, useClientConfig } from '../../../shared/api/config.ts';
import { hasDamageWaiverOn, lineItemLabel, netCents } from '../../booking/booking-rules.ts';
import { useReservation } from '../api/get-reservation.ts';
import { formatBattery, formatMiles } from '../components/ride-format.ts';
import { TripFailure, TripLoading } from '../components/trip-fallback.tsx';
import classes from '../components/trip.module.css';

const miles = (n: number | null) => formatMiles(n, 'On Rent');
const battery = (n: number | null) => formatBattery(n, 'On Rent');

/** What the renter paid on the trip: its paid items, net of discounts and refunds, and what was taken from the deposit. */
function paidCents(r: Reservation): number {
  return r.transactions.reduce((sum, t) => {
    if (t.category === 'Deposit') return sum;
    return t.status === 'Successful' ? sum + netCents(t) : sum;
  }, 0);
}

/**
 * /trip/:id/receipt (spec 2 'Receipt pages'): the trip's receipts — total, car, dates (the ride's
 * own when there is one), the Damage Waiver badge, mileage and battery out and in, then one card
 * per date (spec 4's grouping and labels, from the domain), the first open.
 */
export function ReceiptPage() {
  const { id = '' } = useParams();
  const reservation = useReservation(id);
  const config = useClientConfig();
  if (reservation.isPending) return <TripLoading />;
  if (reservation.error) return <TripFailure error={reservation.error} />;
  const r = reservation.data;
  const tz = r.pickup_location.timezone;
  const ride = r.rides[0];
  const photo = r.vehicle.images.find((i) => i.view === 'MONEYSHOT') ?? r.vehicle.images[0];
  const cards = receiptCards(r.transactions);
  const from = ride?.vehicle_pickup_at ?? r.pickup_at;
  const to = ride?.vehicle_return_at ?? r.return_at;
  return (
    <div className={classes.page}>
      <Group justify="space-between" className={classes.noPrint}>
        <Title order={1}>Your Receipts</Title>
        <Group gap="sm">
          <Anchor component={Link} to={paths.trip.detail(r.platform_id)} size="sm" c="ampere.8">My Trip</Anchor>
          <Button variant="default" size="xs" component="a" href={marketingLink(config, '/policies')} target="_blank" rel="noopener noreferrer">Policies</Button>
          <Button size="xs" onClick={() => window.print()}>Print</Button>
        </Group>
      </Group>
      <section className={classes.panel} aria-labelledby="receipt-summary">
        <Group align="flex-start" gap="lg" wrap="wrap">
          {photo && <img className={classes.receiptPhoto} src={photo.image_url} alt={`${r.vehicle.year} ${r.vehicle.model.name}`} />}
          <div>
            <Text size="xs" c="dimmed" fw={600} tt="uppercase" id="receipt-summary">Total paid</Text>
            <Text fw={800} size="xl">{formatTotal(paidCents(r))}</Text>
            <Text fw={700}>{r.vehicle.year} {r.vehicle.model.name}</Text>
            <Text size="sm">VIN {r.vehicle.vin}</Text>
            <Text size="sm">{formatInstantInZone(from, tz)} – {formatInstantInZone(to, tz)}</Text>
            <Badge mt={6} color={hasDamageWaiverOn(r) ? 'green' : 'gray'} variant="light" c={hasDamageWaiverOn(r) ? 'green.9' : 'dark.6'}>
              {ADDON_LABELS.DAMAGE_WAIVER} {hasDamageWaiverOn(r) ? 'active' : 'declined'}
            </Badge>
          </div>
          <dl className={classes.metrics}>
            <div><dt>Mileage out</dt><dd>{miles(ride?.mileage_out ?? null)}</dd></div>
            <div><dt>Mileage in</dt><dd>{miles(ride?.mileage_in ?? null)}</dd></div>
            <div><dt>Battery out</dt><dd>{battery(ride?.battery_out ?? null)}</dd></div>
            <div><dt>Battery in</dt><dd>{battery(ride?.battery_in ?? null)}</dd></div>
          </dl>
        </Group>
      </section>
      {cards.length === 0 ? (
        <Text>No payments on this trip yet.</Text>
      ) : (
        // One card per date, the first open (spec 2): native disclosure, keyboard and screen-reader ready.
        <div className={classes.receiptCards}>
          {cards.map((card, i) => (
            <details key={card.at} className={classes.receiptCard} open={i === 0}>
              <summary>
                <span>
                  <Text component="span" fw={700} display="block">{receiptTitle(r.platform_id, i)}</Text>
                  <Text component="span" size="sm" c="dimmed" display="block">{card.label === 'Pulled from' ? 'Pulled from security deposit' : card.label} · {formatInstant(card.at, tz)}</Text>
                </span>
                <Text component="span" fw={700}>{formatTotal(cardTotal(card))}</Text>
              </summary>
              <div className={classes.receiptItems}>
                {card.items.map((t) => (
                  <div key={t.id} className={classes.line}>
                    <span>{lineItemLabel(t)}{t.card_last_4 ? ` · card ending in ${t.card_last_4}` : ''}</span>
                    <span>{formatTotal(t.category === 'Deposit' && t.status === 'Captured' ? t.captured_amount : netCents(t))}</span>
                  </div>
                ))}
              </div>
            </details>
          ))}
        </div>
      )}
    </div>
  );
}
