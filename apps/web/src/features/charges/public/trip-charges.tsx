import { Anchor, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { formatTotal } from '@ampere/domain/money';
import { Link } from '../../../shared/router/react.tsx';
import { paths } from '../../../shared/paths.ts';
import { tripChargesQueryOptions } from '../api/charges-api.ts';
import classes from '../components/charges.module.css';

/**
 * The trip page's list of charges posted after the trip, each a link to its page (evidence and
 * dispute). Nothing is drawn for a trip without any, or while they load.
 */
export function TripCharges({ platformId }: { platformId: string }) {
  const charges = useQuery(tripChargesQueryOptions(platformId));
  const list = charges.data?.charges ?? [];
  if (list.length === 0) return null;
  return (
    <section className={classes.panel} aria-labelledby="charges-title">
      <Title order={2} size="h4" id="charges-title" mb="sm">
        Charges after your trip
      </Title>
      <ul className={classes.list}>
        {list.map((c) => (
          <li key={c.id} className={classes.line}>
            <span>
              <Anchor component={Link} to={paths.trip.charge(platformId, c.id)} c="ampere.8" underline="always">
                {c.label}
              </Anchor>{' '}
              <Text span size="xs" c="dimmed">
                {c.statusLabel}
              </Text>
            </span>
            <span>{formatTotal(c.amount)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
