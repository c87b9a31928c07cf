import { addressLine } from '@ampere/domain/format';
import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { TOAST_DURATION_MS } from '@ampere/domain/constants';
import type { Reservation } from '@ampere/domain/contract/booking';
import { shownReturn } from '@ampere/domain/return-summary';
import { useClientConfig } from '../../../shared/api/config.ts';
import { LazyMap } from '../../../shared/map/lazy-map.tsx';
import { LocationInstructions } from '../../../shared/ui/location-instructions.tsx';
import { formatInstantInZone } from '../public/booking-rules.ts';
import classes from './trip.module.css';

type Place = Reservation['pickup_location'];

function When({ label, iso, place, booked }: { label: string; iso: string; place: Place; booked?: string | null }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text fw={700}>{formatInstantInZone(iso, place.timezone)}</Text>
      {booked && (
        <Text size="sm" c="dimmed">
          Booked return: {formatInstantInZone(booked, place.timezone)}
        </Text>
      )}
      <Text size="sm">{place.name}</Text>
      <Text size="sm" c="dimmed">
        {addressLine(place)}
      </Text>
    </div>
  );
}

/**
 * Spec 2 (trip detail): pickup and return in each place's zone, copy-address (the pickup address,
 * then an alert), a maps link, the map, and the place's pickup and return instructions.
 */
export function TripPlace({ reservation: r }: { reservation: Reservation }) {
  const { mapStyleUrl } = useClientConfig();
  const [copied, setCopied] = useState<'ok' | 'failed' | null>(null);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(null), TOAST_DURATION_MS);
    return () => clearTimeout(t);
  }, [copied]);
  const pickup = r.pickup_location;
  // A Returned trip shows when the car actually came back (decision 054).
  const back = shownReturn(r);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(addressLine(pickup));
      setCopied('ok');
    } catch (err) {
      console.error('trip: the address could not be copied', err);
      setCopied('failed');
    }
  };
  return (
    <section className={classes.panel} aria-labelledby="when-title">
      <Title order={2} size="h4" id="when-title" mb="sm">
        Pickup and return
      </Title>
      <Stack gap="md">
        <When label="Pickup" iso={r.pickup_at} place={pickup} />
        <When
          label={back.returned ? 'Returned' : 'Return'}
          iso={back.at}
          booked={back.booked}
          place={r.dropoff_location}
        />
        <Group gap="sm">
          <Button variant="default" size="xs" onClick={() => void copy()}>
            Copy Address
          </Button>
          <Anchor
            href={`https://www.google.com/maps/dir/?api=1&destination=${pickup.latitude},${pickup.longitude}`}
            target="_blank"
            rel="noopener noreferrer"
            size="sm"
            c="ampere.8"
            underline="always"
          >
            Directions
          </Anchor>
        </Group>
        {copied && (
          <Alert
            color={copied === 'ok' ? 'ampere' : 'red'}
            withCloseButton
            closeButtonLabel="Close"
            onClose={() => setCopied(null)}
            role="status"
          >
            {copied === 'ok' ? 'Address copied!' : `Copy failed: ${addressLine(pickup)}`}
          </Alert>
        )}
        <div className={classes.map}>
          <LazyMap
            center={{ latitude: pickup.latitude, longitude: pickup.longitude }}
            zoom={13}
            markers={[
              {
                id: String(pickup.id),
                latitude: pickup.latitude,
                longitude: pickup.longitude,
                title: pickup.name,
                description: pickup.street,
                place: { id: String(pickup.id), name: pickup.name, street: pickup.street },
              },
            ]}
            styleUrl={mapStyleUrl}
            ariaLabel={`Map of ${pickup.name}`}
            height={220}
          />
        </div>
        <LocationInstructions
          pickupHtml={pickup.pickup_instructions_html}
          returnHtml={r.dropoff_location.return_instructions_html}
        />
      </Stack>
    </section>
  );
}
