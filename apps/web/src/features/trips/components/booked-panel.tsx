import { Alert, List, Text } from '@mantine/core';
import type { Reservation } from '@ampere/domain/contract/booking';
import { formatInstantInZone } from '@ampere/domain/format';
import classes from './trip.module.css';
import { KEY_LEAD_MINUTES, type LicenseHolder, outstandingForKey } from '@ampere/domain/verification';

/**
 * The moment after paying for a new trip (issue 12): the trip is booked, and what is left before
 * the drive — the license, the insurance, the key, the pickup — each ticked once it is done. The
 * steps come from the same rule that gates the digital key.
 */
export function BookedPanel({
  reservation: r,
  user,
  onClose,
}: {
  reservation: Reservation;
  user: LicenseHolder | null;
  onClose(): void;
}) {
  const missing = new Set(outstandingForKey({ reservation: r, user, insurance: r.insurance_verifications }));
  const steps = [
    { done: !missing.has('license'), text: "Verify your driver's license (a photo of it and a selfie)." },
    { done: !missing.has('insurance'), text: 'Connect the insurance policy you drive with.' },
    {
      done: missing.size === 0,
      text: `Get your digital key: it opens the car from ${KEY_LEAD_MINUTES} minutes before pickup.`,
    },
    {
      done: false,
      text: `Pick up at ${r.pickup_location.name}, ${formatInstantInZone(r.pickup_at, r.pickup_location.timezone)}.`,
    },
  ];
  return (
    <Alert
      color="ampere"
      variant="light"
      title="Your rental is booked!"
      styles={{ title: { color: 'var(--mantine-color-ampere-9)', fontSize: 18 } }}
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={onClose}
      role="status"
      aria-label="Your rental is booked!"
    >
      <Text size="sm" mb="xs">
        Your {r.vehicle.year} {r.vehicle.model.name} is reserved for you. What's next:
      </Text>
      <List spacing={6} size="sm" center>
        {steps.map((s) => (
          <List.Item
            key={s.text}
            icon={
              <span className={`${classes.step} ${s.done ? classes.stepDone : ''}`} aria-hidden="true">
                {s.done ? '✓' : ''}
              </span>
            }
          >
            <span>{s.text}</span>
            {s.done && <span className="visually-hidden"> (done)</span>}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
