import { Button, Modal, Stack, Text, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { type Trip, earliestSelectable, setPickupDate } from '@ampere/domain/dates';
import { formatDateUs, formatTime12 } from '@ampere/domain/format';
import { addDays, toLocal } from '@ampere/domain/time';
import { DateRangeCalendar } from '../../../shared/ui/dates/date-range-calendar.tsx';
import { TimeSelect } from '../../../shared/ui/dates/time-select.tsx';
import { defaultTripFor } from '../default-trip.ts';
import { LocationBox } from './location-box.tsx';
import type { MobileSearchProps } from '../public/mobile-search.tsx';
import classes from './mobile-search.module.css';

type Step = 'location' | 'pickup' | 'return';
const TITLES: Record<Step, string> = { location: 'Location', pickup: 'Pickup', return: 'Return' };

/**
 * The mobile search's three steps (Location, Pickup, Return), in a full-screen dialog. Each opening
 * is a new one (the trigger keys it), starting from the search on screen.
 */
export function MobileSearchDialog({
  opened,
  onClose,
  location,
  trip,
  onSearch,
}: MobileSearchProps & { opened: boolean; onClose(): void }) {
  const [step, setStep] = useState<Step>('location');
  const [draftLocation, setDraftLocation] = useState(location);
  const [draftTrip, setDraftTrip] = useState<Trip | null>(trip);
  const [returnChosen, setReturnChosen] = useState(true);
  const tz = draftLocation?.timezone ?? 'America/Chicago';
  const now = new Date();
  const earliest = earliestSelectable(now, tz, draftLocation?.min_reservation_buffer_hours);
  const today = toLocal(now, tz).date;

  const summaryRow = (s: Step, text: string) => (
    <UnstyledButton
      key={s}
      className={classes.summary}
      onClick={() => setStep(s)}
      aria-label={`${TITLES[s]}: ${text}. Change`}
    >
      <Text size="xs" c="dimmed">
        {TITLES[s]}
      </Text>
      <Text size="sm" fw={500}>
        {text}
      </Text>
    </UnstyledButton>
  );

  return (
    <Modal opened={opened} onClose={onClose} title={TITLES[step]} fullScreen>
      <Stack>
        {step !== 'location' && draftLocation && summaryRow('location', draftLocation.query)}
        {step === 'return' &&
          draftTrip &&
          summaryRow('pickup', `${formatDateUs(draftTrip.pickupDate)} ${formatTime12(draftTrip.pickupTime)}`)}
        {step === 'location' && (
          <>
            <LocationBox
              value={draftLocation}
              onChange={setDraftLocation}
              label="Location"
              placeholder="Search by zip code, city, state, or airport"
            />
            <Button
              disabled={!draftLocation}
              onClick={() => {
                if (!draftLocation) return;
                setDraftTrip(draftTrip ?? defaultTripFor(draftLocation));
                setStep('pickup');
              }}
            >
              Pickup Date
            </Button>
          </>
        )}
        {step === 'pickup' && draftTrip && (
          <>
            <DateRangeCalendar
              months={1}
              pickupOnly
              today={today}
              value={{ start: draftTrip.pickupDate, end: null }}
              onChange={(r) => {
                const day = r.end ?? r.start;
                if (day) setDraftTrip(setPickupDate(draftTrip, day));
              }}
            />
            <TimeSelect
              label="Pickup time"
              value={draftTrip.pickupTime}
              date={draftTrip.pickupDate}
              earliest={earliest}
              onChange={(t) => setDraftTrip({ ...draftTrip, pickupTime: t })}
            />
            <Button onClick={() => setStep('return')}>Return Date</Button>
          </>
        )}
        {step === 'return' && draftTrip && (
          <>
            <DateRangeCalendar
              months={1}
              returnOnly
              today={today}
              value={{ start: draftTrip.pickupDate, end: returnChosen ? draftTrip.returnDate : null }}
              onChange={(r) => {
                // The clicked day: a later one is the return; an earlier one becomes the new pickup.
                const day = r.end ?? r.start;
                if (!day || day === draftTrip.pickupDate) return;
                if (day > draftTrip.pickupDate) {
                  setDraftTrip({ ...draftTrip, returnDate: day });
                  setReturnChosen(true);
                } else {
                  setDraftTrip({ ...draftTrip, pickupDate: day, returnDate: addDays(day, 1) });
                  setReturnChosen(false);
                }
              }}
            />
            <TimeSelect
              label="Return time"
              value={draftTrip.returnTime}
              date={draftTrip.returnDate}
              earliest={earliest}
              onChange={(t) => setDraftTrip({ ...draftTrip, returnTime: t })}
            />
            <Button
              disabled={!draftLocation || !returnChosen}
              onClick={() => {
                if (!draftLocation) return;
                onSearch(draftLocation, draftTrip);
                onClose();
              }}
            >
              Search Vehicles
            </Button>
          </>
        )}
      </Stack>
    </Modal>
  );
}
